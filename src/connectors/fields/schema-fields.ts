import type { AuthField, SchemaField } from '../entities/connector.entity';
import { valueAtPath } from '../engine/template';

export interface FieldEntry {
  field: SchemaField;
  /** Dotted path of the value in the nested settings (`group.key`). */
  path: string;
  /** Path of the enclosing group, '' at the top level. */
  parent: string;
}

/** Every non-group field with its path; a group's include:false / private passes to its fields. */
export function flattenFields(fields: SchemaField[] | undefined, parent = ''): FieldEntry[] {
  return (fields ?? []).flatMap((field) => {
    const path = parent ? `${parent}.${field.key}` : field.key;
    if (field.type !== 'group') return [{ field, path, parent }];
    return flattenFields(field.fields, path).map((entry) => ({
      ...entry,
      field: {
        ...entry.field,
        include: field.include === false ? false : entry.field.include,
        private: field.private || entry.field.private,
      },
    }));
  });
}

function matches(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) return expected.some((option) => matches(actual, option));
  if (actual === undefined || actual === null) return expected === undefined || expected === null;
  return String(actual) === String(expected);
}

/** A field shows only when each condition key (sibling first, then from the top) holds its value. */
export function isVisible(entry: FieldEntry, values: Record<string, unknown>): boolean {
  const conditions = entry.field.conditions;
  if (!conditions) return true;
  return Object.entries(conditions).every(([key, expected]) => {
    const sibling = entry.parent ? valueAtPath(values, `${entry.parent}.${key}`) : undefined;
    return matches(sibling !== undefined ? sibling : valueAtPath(values, key), expected);
  });
}

function isMissing(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  );
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let current = target;
  for (const part of parts.slice(0, -1)) {
    if (!current[part] || typeof current[part] !== 'object' || Array.isArray(current[part]))
      current[part] = {};
    current = current[part] as Record<string, unknown>;
  }
  current[parts[parts.length - 1]] = value;
}

function deletePath(target: Record<string, unknown>, path: string): void {
  const parts = path.split('.');
  let current: unknown = target;
  for (const part of parts.slice(0, -1)) {
    if (!current || typeof current !== 'object') return;
    current = (current as Record<string, unknown>)[part];
  }
  if (current && typeof current === 'object')
    delete (current as Record<string, unknown>)[parts[parts.length - 1]];
}

/**
 * Puts values where they belong: private fields move into auth data (never kept in settings),
 * include:false fields are dropped from settings, and defaults fill missing settings.
 */
export function normalizeSettings(
  fields: SchemaField[],
  settings: Record<string, unknown>,
  authData: Record<string, string>,
): { settings: Record<string, unknown>; authData: Record<string, string> } {
  const nextSettings = structuredClone(settings);
  const nextAuth = { ...authData };
  for (const entry of flattenFields(fields)) {
    const value = valueAtPath(nextSettings, entry.path);
    if (entry.field.private) {
      if (value !== undefined) {
        if (!isMissing(value)) nextAuth[entry.path] = String(value);
        deletePath(nextSettings, entry.path);
      }
      continue;
    }
    if (entry.field.include === false) {
      deletePath(nextSettings, entry.path);
      continue;
    }
    if (value === undefined && entry.field.default !== undefined)
      setPath(nextSettings, entry.path, entry.field.default);
  }
  return { settings: nextSettings, authData: nextAuth };
}

/** Labels of required fields left empty (hidden fields are not required). */
export function missingRequired(
  fields: SchemaField[],
  authFields: AuthField[],
  settings: Record<string, unknown>,
  authData: Record<string, string>,
): string[] {
  const missing: string[] = [];
  for (const entry of flattenFields(fields)) {
    if (!entry.field.required || entry.field.include === false || !isVisible(entry, settings)) continue;
    const value = entry.field.private ? authData[entry.path] : valueAtPath(settings, entry.path);
    if (isMissing(value)) missing.push(entry.field.label ?? entry.path);
  }
  for (const field of authFields) {
    const label = field.label ?? field.key;
    if (field.required && isMissing(authData[field.key]) && !missing.includes(label)) missing.push(label);
  }
  return missing;
}
