import type { BodyFormat } from '../dsl/connector-spec.types';
import { setAtPath } from './partitions';
import { scalarText } from './template';

/** A body object as sent: JSON, or application/x-www-form-urlencoded (nested values as JSON). */
export function encodeBody(
  body: Record<string, unknown>,
  format: BodyFormat,
): { body: string; contentType: string } {
  if (format === 'form') {
    const form = new URLSearchParams();
    for (const [name, value] of Object.entries(body)) {
      if (value === undefined || value === null) continue;
      form.set(name, scalarText(value));
    }
    return { body: form.toString(), contentType: 'application/x-www-form-urlencoded' };
  }
  return { body: JSON.stringify(body), contentType: 'application/json' };
}

/** The body with the page token's dotted paths set into it. */
export function withBodyValues(
  body: Record<string, unknown>,
  values: Record<string, unknown>,
): Record<string, unknown> {
  if (Object.keys(values).length === 0) return body;
  const copy = structuredClone(body);
  for (const [path, value] of Object.entries(values)) setAtPath(copy, path, value);
  return copy;
}
