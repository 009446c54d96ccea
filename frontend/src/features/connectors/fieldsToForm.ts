import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { SchemaField } from './connectorTypes';
import { conditionPath } from './fieldPaths';

/**
 * `schema.fields` -> JSON Schema + uiSchema for react-jsonschema-form (@rjsf v6):
 * text/number/date/bool/select/group -> string/number/date-format string/boolean/enum/nested
 * object. A field with `conditions` is declared only in the `then` of an `if` on those values,
 * so it shows (and is required) only while they match. Private fields use a password widget.
 */
export interface ConnectorForm {
  schema: RJSFSchema;
  uiSchema: UiSchema;
}

type Option = NonNullable<SchemaField['options']>[number];

function optionValue(option: Option): string | number | boolean {
  return typeof option === 'object' ? option.value : option;
}

function optionLabel(option: Option): string {
  return typeof option === 'object' ? (option.label ?? String(option.value)) : String(option);
}

function selectSchema(field: SchemaField): RJSFSchema {
  const options = field.options ?? [];
  const values = options.map(optionValue);
  const kinds = new Set(values.map((value) => typeof value));
  const type =
    kinds.size === 1
      ? kinds.has('number')
        ? 'number'
        : kinds.has('boolean')
          ? 'boolean'
          : 'string'
      : undefined;
  const labelled = options.some((option) => typeof option === 'object' && option.label !== undefined);
  if (labelled)
    return {
      ...(type ? { type } : {}),
      oneOf: options.map((option) => ({ const: optionValue(option), title: optionLabel(option) })),
    };
  // A select fed by an options_endpoint may have no static options yet: a plain string until loaded.
  if (values.length === 0) return { type: 'string' };
  return { ...(type ? { type } : {}), enum: values };
}

function fieldSchema(
  field: SchemaField,
  path: string,
  root: ConditionalSink,
): { schema: RJSFSchema; uiSchema: UiSchema } {
  const title = field.label ?? field.key;
  const common: RJSFSchema = {
    title,
    ...(field.description ? { description: field.description } : {}),
    ...(field.default !== undefined ? { default: field.default as RJSFSchema['default'] } : {}),
  };
  const uiSchema: UiSchema = {};
  if (field.private) uiSchema['ui:widget'] = 'password';
  if (field.options_endpoint) {
    uiSchema['ui:options'] = {
      optionsEndpoint: field.options_endpoint,
      dependsOn: field.depends_on ?? [],
      fieldPath: path,
    };
  }
  switch (field.type) {
    case 'number':
      return { schema: { ...common, type: 'number' }, uiSchema };
    case 'date':
      return { schema: { ...common, type: 'string', format: 'date' }, uiSchema };
    case 'bool':
    case 'boolean':
      return { schema: { ...common, type: 'boolean' }, uiSchema };
    case 'select':
      return { schema: { ...common, ...selectSchema(field) }, uiSchema };
    case 'group': {
      const nested = objectSchema(field.fields ?? [], path, root);
      return { schema: { ...common, ...nested.schema }, uiSchema: { ...uiSchema, ...nested.uiSchema } };
    }
    default:
      return { schema: { ...common, type: 'string' }, uiSchema };
  }
}

/** Conditions that reach outside their group are collected and attached at the top level. */
type ConditionalSink = RJSFSchema[];

function matchSchema(expected: unknown): RJSFSchema {
  return Array.isArray(expected)
    ? { enum: expected as RJSFSchema['enum'] }
    : { const: expected as RJSFSchema['const'] };
}

/** `{a: {b: leaf}}` from the path ['a', 'b']; `required` marks every step so `if` needs the value present. */
function nestAt(steps: string[], leaf: RJSFSchema, requireLeaf: boolean): RJSFSchema {
  const [head, ...rest] = steps;
  if (rest.length === 0)
    return { properties: { [head]: leaf }, ...(requireLeaf ? { required: [head] } : {}) };
  return { properties: { [head]: nestAt(rest, leaf, requireLeaf) }, required: [head] };
}

function mergeNested(target: RJSFSchema, addition: RJSFSchema): RJSFSchema {
  const properties: Record<string, RJSFSchema> = {
    ...((target.properties as Record<string, RJSFSchema>) ?? {}),
  };
  for (const [key, value] of Object.entries((addition.properties as Record<string, RJSFSchema>) ?? {})) {
    properties[key] = properties[key] ? mergeNested(properties[key], value) : value;
  }
  const required = [...new Set([...(target.required ?? []), ...(addition.required ?? [])])];
  return { ...target, ...addition, properties, ...(required.length > 0 ? { required } : {}) };
}

function objectSchema(
  fields: SchemaField[],
  parent: string,
  root: ConditionalSink,
): { schema: RJSFSchema; uiSchema: UiSchema } {
  const properties: Record<string, RJSFSchema> = {};
  const required: string[] = [];
  const allOf: RJSFSchema[] = [];
  const uiSchema: UiSchema = { 'ui:order': [...fields.map((field) => field.key), '*'] };
  for (const field of fields) {
    const path = parent ? `${parent}.${field.key}` : field.key;
    const built = fieldSchema(field, path, root);
    uiSchema[field.key] = { 'ui:title': field.label ?? field.key, ...built.uiSchema };
    if (!field.conditions || Object.keys(field.conditions).length === 0) {
      properties[field.key] = built.schema;
      if (field.required) required.push(field.key);
      continue;
    }
    const paths = Object.entries(field.conditions).map(
      ([key, expected]) => [conditionPath(key, parent, fields), expected] as const,
    );
    const local = paths.every(([conditionKey]) =>
      parent ? conditionKey.startsWith(`${parent}.`) : !conditionKey.includes('.'),
    );
    const then = {
      properties: { [field.key]: built.schema },
      ...(field.required ? { required: [field.key] } : {}),
    };
    if (local) {
      const condition = paths.reduce<RJSFSchema>(
        (schema, [conditionKey, expected]) =>
          mergeNested(
            schema,
            nestAt(
              [parent ? conditionKey.slice(parent.length + 1) : conditionKey],
              matchSchema(expected),
              true,
            ),
          ),
        {},
      );
      allOf.push({ if: condition, then });
    } else {
      const condition = paths.reduce<RJSFSchema>(
        (schema, [conditionKey, expected]) =>
          mergeNested(schema, nestAt(conditionKey.split('.'), matchSchema(expected), true)),
        {},
      );
      const steps = parent ? parent.split('.') : [];
      root.push({ if: condition, then: steps.length > 0 ? nestAt(steps, then, false) : then });
    }
  }
  const schema: RJSFSchema = {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    ...(allOf.length > 0 ? { allOf } : {}),
  };
  return { schema, uiSchema };
}

export function fieldsToForm(fields: SchemaField[] | undefined): ConnectorForm {
  const root: ConditionalSink = [];
  const { schema, uiSchema } = objectSchema(fields ?? [], '', root);
  if (root.length > 0) schema.allOf = [...((schema.allOf as RJSFSchema[]) ?? []), ...root];
  return { schema, uiSchema };
}
