import type { SchemaField } from '../../api/connectors';

/**
 * schema.fields -> JSON Schema + uiSchema for react-jsonschema-form, for the values on screen.
 * Conditions are applied here, in plain code: a field whose conditions do not hold is left out
 * (neither shown nor required) and the form is rebuilt as values change. The schema therefore has
 * no if/then, so it can be checked by formValidator: the stock AJV validator compiles code with
 * `new Function`, which the app's Content-Security-Policy (no 'unsafe-eval') forbids.
 */

export interface JsonSchema {
  type?: string;
  title?: string;
  description?: string;
  format?: string;
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  oneOf?: Array<{ const: unknown; title: string }>;
}

export type UiSchema = Record<string, unknown>;

type Values = Record<string, unknown>;

function valueAt(values: Values, path: string): unknown {
  let current: unknown = values;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Values)[part];
  }
  return current;
}

function matches(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) return expected.some((option) => matches(actual, option));
  return (
    actual === expected || (actual !== undefined && actual !== null && String(actual) === String(expected))
  );
}

/** Conditions name sibling keys (inside the same group) or dotted paths from the top. */
export function conditionsHold(field: SchemaField, values: Values, parentPath: string): boolean {
  if (!field.conditions) return true;
  return Object.entries(field.conditions).every(([key, expected]) => {
    const sibling = parentPath ? valueAt(values, `${parentPath}.${key}`) : undefined;
    return matches(sibling !== undefined ? sibling : valueAt(values, key), expected);
  });
}

function optionEntries(options: unknown[] = []): Array<{ const: unknown; title: string }> {
  return options.map((option) => {
    if (option && typeof option === 'object') {
      const { label, value } = option as { label?: unknown; value?: unknown };
      return { const: value, title: String(label ?? value) };
    }
    return { const: option, title: String(option) };
  });
}

/** The form needs a type for an option list; it follows the option values. */
function optionsType(values: unknown[]): string {
  if (values.length && values.every((value) => typeof value === 'number')) return 'number';
  if (values.length && values.every((value) => typeof value === 'boolean')) return 'boolean';
  return 'string';
}

export interface FormSchemaOptions {
  /**
   * The instance already holds the private values (stored encrypted, never sent back): their boxes
   * start empty, are no longer required, and left empty keep what is stored.
   */
  privateStored?: boolean;
}

/** Name of the widget (registered by the setup form) that loads a select field's options_endpoint. */
export const REMOTE_SELECT_WIDGET = 'remoteSelect';

const KEEP_STORED = 'Stored encrypted. Leave empty to keep the saved value.';

function fieldSchema(
  field: SchemaField,
  values: Values,
  path: string,
  options: FormSchemaOptions,
): { schema: JsonSchema; ui: UiSchema } {
  const base: JsonSchema = { title: field.label || field.key };
  if (field.description) base.description = field.description;
  if (field.private && options.privateStored) base.description = KEEP_STORED;
  if (field.default !== undefined) base.default = field.default;
  switch (field.type) {
    case 'number':
      return { schema: { ...base, type: 'number' }, ui: {} };
    case 'date':
      return { schema: { ...base, type: 'string', format: 'date' }, ui: {} };
    case 'bool':
    case 'boolean':
      return { schema: { ...base, type: 'boolean' }, ui: {} };
    case 'select': {
      // Choices fetched from the connector's API: the form keeps the value as text and the widget
      // loads the list (again whenever a field it depends on changes).
      if (field.options_endpoint)
        return {
          schema: { ...base, type: 'string' },
          ui: {
            'ui:widget': REMOTE_SELECT_WIDGET,
            'ui:options': { field: path, dependsOn: field.depends_on ?? [] },
          },
        };
      const oneOf = optionEntries(field.options);
      return { schema: { ...base, type: optionsType(oneOf.map((option) => option.const)), oneOf }, ui: {} };
    }
    case 'group': {
      const nested = objectSchema(field.fields ?? [], values, path, options);
      return { schema: { ...base, ...nested.schema }, ui: nested.ui };
    }
    default:
      return { schema: { ...base, type: 'string' }, ui: field.private ? { 'ui:widget': 'password' } : {} };
  }
}

function objectSchema(
  fields: SchemaField[],
  values: Values,
  parentPath: string,
  options: FormSchemaOptions,
): { schema: JsonSchema; ui: UiSchema } {
  const properties: Record<string, JsonSchema> = {};
  const ui: UiSchema = { 'ui:order': [] as string[] };
  const required: string[] = [];
  for (const field of fields) {
    if (!conditionsHold(field, values, parentPath)) continue;
    const path = parentPath ? `${parentPath}.${field.key}` : field.key;
    const built = fieldSchema(field, values, path, options);
    properties[field.key] = built.schema;
    if (Object.keys(built.ui).length) ui[field.key] = built.ui;
    (ui['ui:order'] as string[]).push(field.key);
    if (field.required && !(field.private && options.privateStored)) required.push(field.key);
  }
  return { schema: { type: 'object', properties, ...(required.length ? { required } : {}) }, ui };
}

export function toFormSchema(
  fields: SchemaField[],
  values: Values,
  options: FormSchemaOptions = {},
): { schema: JsonSchema; uiSchema: UiSchema } {
  const built = objectSchema(fields, values, '', options);
  return { schema: built.schema, uiSchema: built.ui };
}
