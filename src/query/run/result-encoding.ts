import type { QueryColumn } from './query-runner.service';

const NUMBER_TYPES = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'numeric', 'oid']);
const JSON_NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * One value as JSON text from PostgreSQL's own text: numbers keep every digit (a 19-digit
 * integer or a long decimal is written as PostgreSQL wrote it), JSON stays JSON, booleans are
 * booleans, and everything else (dates and times as written, text) is a string.
 */
export function jsonValue(type: string, text: string | null): string {
  if (text === null) return 'null';
  if (NUMBER_TYPES.has(type)) return JSON_NUMBER.test(text) ? text : JSON.stringify(text);
  if (type === 'bool') return text === 't' ? 'true' : 'false';
  if (type === 'json' || type === 'jsonb') return text;
  return JSON.stringify(text);
}

/** A CSV field as PostgreSQL's COPY writes one: NULL as nothing, an empty string as "". */
export function csvValue(text: string | null): string {
  if (text === null) return '';
  if (text === '' || /[",\r\n]/.test(text)) return `"${text.replaceAll('"', '""')}"`;
  return text;
}

/**
 * Column names made unique (`n`, `n_2`, …) for formats that key values by name. A suffix never
 * takes a name the result already has (`SELECT 1 AS n, 2 AS n, 3 AS n_2` gives `n`, `n_3`, `n_2`).
 */
export function uniqueNames(columns: QueryColumn[]): string[] {
  const given = new Set(columns.map(({ name }) => name));
  const used = new Set<string>();
  return columns.map(({ name }) => {
    let unique = name;
    for (let suffix = 2; used.has(unique) || (unique !== name && given.has(unique)); suffix++)
      unique = `${name}_${suffix}`;
    used.add(unique);
    return unique;
  });
}

export function jsonRow(columns: QueryColumn[], row: Array<string | null>): string {
  return `[${row.map((value, index) => jsonValue(columns[index].type, value)).join(',')}]`;
}

export function ndjsonRow(columns: QueryColumn[], names: string[], row: Array<string | null>): string {
  const fields = row.map(
    (value, index) => `${JSON.stringify(names[index])}:${jsonValue(columns[index].type, value)}`,
  );
  return `{${fields.join(',')}}\n`;
}

export function csvRow(row: Array<string | null>): string {
  return `${row.map(csvValue).join(',')}\n`;
}
