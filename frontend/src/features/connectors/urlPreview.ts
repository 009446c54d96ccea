import type { Values } from './connectorTypes';
import type { SchemaField } from '../../api/connectors';
import { flattenFields, valueAt } from './fieldPaths';

/**
 * The final URL a run would call, built like the server's engine does: `{{key}}` / `{{group.key}}`
 * filled URL-encoded (arrays comma-joined), query parameters whose whole value is an empty
 * placeholder dropped, and declared parameters no template uses appended as query parameters.
 */
const PLACEHOLDER = /\{\{\s*([\w.-]+)\s*\}\}/g;
const RESERVED = new Set(['override']);

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map(text).join(',');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function isEmpty(value: unknown): boolean {
  return (
    value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)
  );
}

export function placeholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((match) => match[1]);
}

export function fillUrlTemplate(template: string, values: Values): string {
  const [withoutHash] = template.split('#');
  const queryStart = withoutHash.indexOf('?');
  const base = queryStart === -1 ? withoutHash : withoutHash.slice(0, queryStart);
  const query = queryStart === -1 ? '' : withoutHash.slice(queryStart + 1);
  const encode = (path: string) => encodeURIComponent(text(valueAt(values, path)));
  const filledBase = base.replace(PLACEHOLDER, (_match, path: string) => encode(path));
  const pairs = query
    .split('&')
    .filter((pair) => pair !== '')
    .filter((pair) => {
      const only = /^\{\{\s*([\w.-]+)\s*\}\}$/.exec(pair.slice(pair.indexOf('=') + 1));
      return !(pair.includes('=') && only && isEmpty(valueAt(values, only[1])));
    })
    .map((pair) => pair.replace(PLACEHOLDER, (_match, path: string) => encode(path)));
  return pairs.length > 0 ? `${filledBase}?${pairs.join('&')}` : filledBase;
}

function unusedSettings(
  settings: Values,
  used: Set<string>,
  declared: Set<string> | undefined,
  prefix = '',
): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const [key, value] of Object.entries(settings ?? {})) {
    const path = prefix ? `${prefix}.${key}` : key;
    if ((!prefix && RESERVED.has(key)) || isEmpty(value)) continue;
    if (typeof value === 'object' && !Array.isArray(value))
      pairs.push(...unusedSettings(value as Values, used, declared, path));
    else if (!used.has(path) && (!declared || declared.has(path))) pairs.push([path, text(value)]);
  }
  return pairs;
}

/**
 * Template + settings -> the URL shown under the read-only template. `otherTemplates` are the
 * header values and body template, whose placeholders also consume settings. Like the engine,
 * only `declared` settings (see declaredParams) are appended: other keys are never sent.
 */
export function previewUrl(
  template: string,
  settings: Values,
  otherTemplates: string[] = [],
  declared?: string[],
): string {
  const filled = fillUrlTemplate(template, settings);
  const used = new Set([template, ...otherTemplates].flatMap(placeholders));
  let url: URL;
  try {
    url = new URL(filled);
  } catch {
    return filled;
  }
  for (const [key, value] of unusedSettings(settings, used, declared && new Set(declared))) {
    if (!url.searchParams.has(key)) url.searchParams.set(key, value);
  }
  return url.toString();
}

/**
 * Placeholders in the URL's path (before any `?`) that have no value: the URL would have an empty
 * segment (`stations//observations`), which no API answers as meant.
 */
export function emptyPathPlaceholders(template: string, settings: Values): string[] {
  const path = template.split(/[?#]/)[0];
  return [...new Set(placeholders(path))].filter((key) => isEmpty(valueAt(settings, key)));
}

/**
 * The settings a run sends as query parameters without a template, as the engine decides: the
 * first operation's own params_fields when the connector has a spec (its shared fields go only
 * through templates), every field of a connector without one. Private and include:false never.
 */
export function declaredParams(spec: unknown, fields: SchemaField[]): string[] {
  const operations = (spec as { operations?: Array<{ params_fields?: SchemaField[] }> } | null)?.operations;
  const declared = operations ? (operations[0]?.params_fields ?? []) : fields;
  return flattenFields(declared)
    .filter((entry) => !entry.field.private && entry.field.include !== false)
    .map((entry) => entry.path);
}
