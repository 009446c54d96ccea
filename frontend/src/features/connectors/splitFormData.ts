import type { SchemaField } from '../../api/connectors';
import type { Values } from './connectorTypes';
import { conditionsHold, flattenFields, valueAt } from './fieldPaths';

export interface SplitValues {
  /** Nested settings: no private values, no include:false values, no values of hidden fields. */
  settings: Values;
  /** Private values keyed by their dotted path, as the server stores them. */
  auth_data: Record<string, string>;
}

function setAt(target: Values, path: string, value: unknown): void {
  const parts = path.split('.');
  let current = target;
  for (const part of parts.slice(0, -1)) {
    if (!current[part] || typeof current[part] !== 'object' || Array.isArray(current[part]))
      current[part] = {};
    current = current[part] as Values;
  }
  current[parts[parts.length - 1]] = value;
}

function deleteAt(target: Values, path: string): void {
  const parts = path.split('.');
  let current: unknown = target;
  for (const part of parts.slice(0, -1)) {
    if (!current || typeof current !== 'object') return;
    current = (current as Values)[part];
  }
  if (current && typeof current === 'object') delete (current as Values)[parts[parts.length - 1]];
}

/**
 * Turns the form's data into what activation and updates send: private fields to auth_data,
 * include:false and hidden (condition not met) fields out of settings. Values of keys the
 * schema does not know (typed in the Advanced editor) stay in settings.
 */
export function splitFormData(fields: SchemaField[] | undefined, formData: Values): SplitValues {
  const settings = structuredClone(formData ?? {});
  const authData: Record<string, string> = {};
  for (const entry of flattenFields(fields)) {
    const value = valueAt(formData ?? {}, entry.path);
    const visible = conditionsHold(entry, formData ?? {});
    if (entry.field.private) {
      if (visible && value !== undefined && value !== null && value !== '')
        authData[entry.path] = String(value);
      deleteAt(settings, entry.path);
    } else if (entry.field.include === false || !visible) {
      deleteAt(settings, entry.path);
    }
  }
  return { settings, auth_data: authData };
}

/** Initial form data: defaults of every field under the saved settings. */
export function initialFormData(fields: SchemaField[] | undefined, saved: Values = {}): Values {
  const data: Values = {};
  for (const entry of flattenFields(fields)) {
    if (entry.field.default !== undefined) setAt(data, entry.path, entry.field.default);
  }
  const merge = (target: Values, source: Values) => {
    for (const [key, value] of Object.entries(source)) {
      if (
        value &&
        typeof value === 'object' &&
        !Array.isArray(value) &&
        target[key] &&
        typeof target[key] === 'object'
      ) {
        merge(target[key] as Values, value as Values);
      } else target[key] = value;
    }
  };
  merge(data, saved);
  return data;
}
