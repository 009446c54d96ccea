import { isLosslessNumber } from 'lossless-json';
import { DateTime } from 'luxon';
import { applyDatePipes, dateRoot, isoText } from './date-functions';

/**
 * `{{key}}` / `{{group.key}}` placeholders. In URLs values are URL-encoded (arrays comma-joined)
 * and a query parameter whose whole value is one empty placeholder is dropped; in JSON body
 * templates values go in raw (JSON-escaped inside string literals, JSON values outside them).
 */
const PLACEHOLDER = /\{\{\s*([\w.-]+)((?:\s*\|\s*\w+(?::[^|}]*)?)*)\s*\}\}/g;

/** The value at a dotted path (`group.key`, `items.0`) of nested settings. */
export function valueAtPath(values: Record<string, unknown>, path: string): unknown {
  let current: unknown = values;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((match) => match[1]);
}

/** The value of one placeholder: the path's value, through its date functions when it has any. */
function placeholderValue(values: Record<string, unknown>, path: string, pipes: string | undefined): unknown {
  const value = dateRoot(values, path) ?? valueAtPath(values, path);
  return pipes ? applyDatePipes(value, pipes) : value instanceof DateTime ? isoText(value) : value;
}

function isEmpty(value: unknown): boolean {
  return (
    value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)
  );
}

/** Text form of a value in a URL or header: arrays comma-joined, objects as JSON. */
export function scalarText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (isLosslessNumber(value)) return value.toString();
  if (Array.isArray(value)) return value.map(scalarText).join(',');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Fills plain text (header values, auth formats) without encoding. */
export function fillText(template: string, values: Record<string, unknown>): string {
  return template.replace(PLACEHOLDER, (_match, path: string, pipes?: string) =>
    scalarText(placeholderValue(values, path, pipes)),
  );
}

/** Fills a URL template, URL-encoding every value and dropping query parameters left empty. */
export function fillUrlTemplate(template: string, values: Record<string, unknown>): string {
  const [beforeHash] = template.split('#');
  const queryStart = beforeHash.indexOf('?');
  const base = queryStart === -1 ? beforeHash : beforeHash.slice(0, queryStart);
  const query = queryStart === -1 ? '' : beforeHash.slice(queryStart + 1);
  const encode = (path: string, pipes?: string) =>
    encodeURIComponent(scalarText(placeholderValue(values, path, pipes)));
  const filledBase = base.replace(PLACEHOLDER, (_match, path: string, pipes?: string) => encode(path, pipes));
  const pairs = query
    .split('&')
    .filter((pair) => pair !== '')
    .filter((pair) => {
      const value = pair.slice(pair.indexOf('=') + 1);
      const only = /^\{\{\s*([\w.-]+)\s*\}\}$/.exec(value);
      return !(pair.includes('=') && only && isEmpty(valueAtPath(values, only[1])));
    })
    .map((pair) => pair.replace(PLACEHOLDER, (_match, path: string, pipes?: string) => encode(path, pipes)));
  return pairs.length > 0 ? `${filledBase}?${pairs.join('&')}` : filledBase;
}

/** Raw JSON text of a value placed outside a string literal. */
function jsonLiteral(value: unknown): string {
  if (value === undefined) return 'null';
  if (typeof value === 'string') {
    return /^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null)$/.test(value.trim())
      ? value.trim()
      : JSON.stringify(value);
  }
  return JSON.stringify(value);
}

/** Fills a JSON body template; the result must still be valid JSON. */
export function fillJsonTemplate(template: string, values: Record<string, unknown>): string {
  let output = '';
  let inString = false;
  let index = 0;
  while (index < template.length) {
    const char = template[index];
    if (template.startsWith('{{', index)) {
      const end = template.indexOf('}}', index);
      const inner = end === -1 ? '' : template.slice(index + 2, end).trim();
      const [path, ...pipes] = inner.split('|');
      if (end !== -1 && /^[\w.-]+$/.test(path.trim())) {
        const value = placeholderValue(
          values,
          path.trim(),
          pipes.length > 0 ? `|${pipes.join('|')}` : undefined,
        );
        output += inString ? JSON.stringify(scalarText(value)).slice(1, -1) : jsonLiteral(value);
        index = end + 2;
        continue;
      }
    }
    if (inString && char === '\\') {
      output += template.slice(index, index + 2);
      index += 2;
      continue;
    }
    if (char === '"') inString = !inString;
    output += char;
    index++;
  }
  return output;
}
