import type { AuthField } from '../../api/connectors';

/** Connector auth fields: a JSON string or an array of {label, key, required}. */

export function parseAuthFields(raw: unknown): AuthField[] {
  let list: unknown = raw;
  if (typeof raw === 'string') {
    try {
      list = JSON.parse(raw);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry) => {
    const { key, label, required } = (entry ?? {}) as Record<string, unknown>;
    if (typeof key !== 'string' || !key) return [];
    return [{ key, label: typeof label === 'string' && label ? label : key, required: required === true }];
  });
}

/** Keys of required auth fields still empty. */
export function missingAuthFields(fields: AuthField[], values: Record<string, string>): string[] {
  return fields.filter((field) => field.required && !values[field.key]?.trim()).map((field) => field.key);
}
