import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import { ajv } from '../dsl/json-schema';
import type { SchemaField } from '../entities/connector.entity';

/** Settings keys that are the app's own, not a connector's field: whether a run replaces the table. */
const RESERVED: Record<string, { schema: object; message: string }> = {
  override: { schema: { type: 'boolean' }, message: 'must be true or false' },
};

/** A settings value a field does not accept, or a key no field declares. */
export interface FieldProblem {
  /** Dotted path of the value in the nested settings (`group.key`). */
  path: string;
  /** The field, or undefined for a key no field declares (or a reserved key). */
  field?: SchemaField;
  message: string;
}

/** An empty value: the field is left unset (whether it may be is the required rule's business). */
const EMPTY = { enum: [null, ''] };

function optionValues(field: SchemaField): unknown[] {
  return (field.options ?? []).map((option) =>
    option !== null && typeof option === 'object' ? option.value : option,
  );
}

/** One value of a non-group field. Options fetched from an API cannot be known here: any scalar. */
function scalarSchema(field: SchemaField): object {
  switch (field.type) {
    case 'number':
      return { type: 'number' };
    case 'date':
      return { type: 'string', anyOf: [{ format: 'date' }, { format: 'date-time' }] };
    case 'bool':
    case 'boolean':
      return { type: 'boolean' };
    case 'select':
      return field.options_endpoint || !field.options
        ? { type: ['string', 'number', 'boolean'] }
        : { enum: optionValues(field) };
    default:
      return { type: 'string' };
  }
}

/**
 * What a field accepts: a value of its type, a list of them (iterated, or joined with commas in
 * a request), or nothing; a group, an object of its own fields.
 */
function valueSchema(field: SchemaField): object {
  if (field.type === 'group') return { type: ['object', 'null'], ...objectSchema(field.fields ?? []) };
  const one = scalarSchema(field);
  return { anyOf: [one, { type: 'array', items: one }, EMPTY] };
}

function objectSchema(fields: SchemaField[], reserved: typeof RESERVED = {}): object {
  const properties: Record<string, object> = Object.fromEntries(
    Object.entries(reserved).map(([key, rule]) => [key, rule.schema]),
  );
  for (const field of fields) properties[field.key] = valueSchema(field);
  return { properties, additionalProperties: false };
}

function describe(field: SchemaField): string {
  switch (field.type) {
    case 'number':
      return 'must be a number';
    case 'date':
      return 'must be a date (YYYY-MM-DD)';
    case 'bool':
    case 'boolean':
      return 'must be true or false';
    case 'group':
      return 'must be an object of its fields';
    case 'select':
      return field.options_endpoint || !field.options
        ? 'must be one value'
        : `must be one of: ${optionValues(field).map(String).join(', ')}`;
    default:
      return 'must be text';
  }
}

/** Every field, groups included, by dotted path, in the order the form shows them. */
function fieldsByPath(fields: SchemaField[], parent = '', into = new Map<string, SchemaField>()) {
  for (const field of fields) {
    const path = parent ? `${parent}.${field.key}` : field.key;
    into.set(path, field);
    if (field.type === 'group') fieldsByPath(field.fields ?? [], path, into);
  }
  return into;
}

/** Compiled validators by schema text: connectors are few, their schemas compiled once. */
const compiled = new Map<string, { schema: object; validate: ValidateFunction }>();
const MAX_COMPILED = 200;

function validatorFor(schema: object): ValidateFunction {
  const key = JSON.stringify(schema);
  const known = compiled.get(key);
  if (known) {
    compiled.delete(key);
    compiled.set(key, known);
    return known.validate;
  }
  const entry = { schema, validate: ajv.compile(schema) };
  compiled.set(key, entry);
  if (compiled.size > MAX_COMPILED) {
    const [oldestKey, oldest] = compiled.entries().next().value!;
    compiled.delete(oldestKey);
    ajv.removeSchema(oldest.schema);
  }
  return entry.validate;
}

function pathOf(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/');
}

/**
 * Checks settings against the connector's fields (`schema.fields`): each value of its field's
 * type, a select's value one it offers, no key the fields do not declare. Required fields are
 * missingRequired's rule (it knows conditions and stored secrets). One problem per value.
 */
export function settingsProblems(fields: SchemaField[], settings: Record<string, unknown>): FieldProblem[] {
  const validate = validatorFor({ type: 'object', ...objectSchema(fields, RESERVED) });
  if (validate(settings)) return [];
  const byPath = fieldsByPath(fields);
  const wrong = new Set<string>();
  const unknown: string[] = [];
  for (const error of validate.errors ?? []) {
    const parts = pathOf(error.instancePath);
    if (error.keyword === 'additionalProperties') {
      unknown.push(
        [...parts, String((error as ErrorObject<'additionalProperties'>).params.additionalProperty)].join(
          '.',
        ),
      );
      continue;
    }
    // The value's field: the longest declared path the error sits under (list items count as their field).
    for (let length = parts.length; length > 0; length--) {
      const path = parts.slice(0, length).join('.');
      if (byPath.has(path) || (length === 1 && path in RESERVED)) {
        wrong.add(path);
        break;
      }
    }
  }
  const problems: FieldProblem[] = [];
  for (const [path, field] of byPath) {
    if (wrong.has(path)) problems.push({ path, field, message: describe(field) });
  }
  for (const [path, rule] of Object.entries(RESERVED)) {
    if (wrong.has(path) && !byPath.has(path)) problems.push({ path, message: rule.message });
  }
  for (const path of new Set(unknown)) {
    problems.push({ path, message: 'is not a field of this connector' });
  }
  return problems;
}

/** Why a value does not fit the field (a spec's default, say), or undefined when it does. */
export function valueProblem(field: SchemaField, value: unknown): string | undefined {
  return settingsProblems([field], { [field.key]: value })[0]?.message;
}
