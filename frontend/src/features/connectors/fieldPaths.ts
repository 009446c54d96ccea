import type { SchemaField } from '../../api/connectors';
import type { Values } from './connectorTypes';

export interface FieldEntry {
  field: SchemaField;
  /** Dotted path of the value (`group.key`). */
  path: string;
  /** Path of the enclosing group ('' at the top). */
  parent: string;
}

/** The value at a dotted path of nested values. */
export function valueAt(values: Values, path: string): unknown {
  let current: unknown = values;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Values)[part];
  }
  return current;
}

/** Every non-group field with its path; a group's private / include:false passes to its fields. */
export function flattenFields(fields: SchemaField[] | undefined, parent = ''): FieldEntry[] {
  return (fields ?? []).flatMap((field) => {
    const path = parent ? `${parent}.${field.key}` : field.key;
    if (field.type !== 'group') return [{ field, path, parent }];
    return flattenFields(field.fields, path).map((entry) => ({
      ...entry,
      field: {
        ...entry.field,
        private: field.private || entry.field.private,
        include: field.include === false ? false : entry.field.include,
      },
    }));
  });
}

function matches(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) return expected.some((option) => matches(actual, option));
  if (actual === undefined || actual === null) return expected === undefined || expected === null;
  return String(actual) === String(expected);
}

/** Whether a field's conditions hold for the given (nested) values; same rule as the server. */
export function conditionsHold(entry: FieldEntry, values: Values): boolean {
  const conditions = entry.field.conditions;
  if (!conditions) return true;
  return Object.entries(conditions).every(([key, expected]) => {
    const sibling = entry.parent ? valueAt(values, `${entry.parent}.${key}`) : undefined;
    return matches(sibling !== undefined ? sibling : valueAt(values, key), expected);
  });
}
