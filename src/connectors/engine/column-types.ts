import { isLosslessNumber, stringify as losslessStringify } from 'lossless-json';

/** Postgres types a fetched value may land in, from the narrowest to the widest. */
export type ColumnType = 'boolean' | 'numeric' | 'date' | 'timestamptz' | 'text' | 'jsonb';

/** An ISO-8601 calendar date (`2024-01-31`). */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** An ISO-8601 date and time, seconds and zone optional (`2024-01-01T00:00:00Z`, `2024-01-01T13:00`). */
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)?$/;
const HAS_ZONE = /(Z|[+-]\d{2}(:?\d{2})?)$/;

/** Days of each month in a common year. */
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether a real calendar day: `2024-02-30` stays text, and so do years before 100 (year 0 does
 * not exist for Postgres). Read from the digits, once per fetched value, so no Date is built.
 */
function realDate(text: string): boolean {
  const year = Number(text.slice(0, 4));
  const month = Number(text.slice(5, 7));
  const day = Number(text.slice(8, 10));
  if (year < 100 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : MONTH_DAYS[month - 1]);
}

/** The type of a text value: a date, a timestamp or plain text. */
export function textKind(text: string): ColumnType {
  if (text.length === 10 && ISO_DATE.test(text) && realDate(text)) return 'date';
  if (text.length >= 16 && text.length <= 40 && ISO_TIMESTAMP.test(text) && realDate(text)) {
    return Number.isNaN(Date.parse(timestampText(text))) ? 'text' : 'timestamptz';
  }
  return 'text';
}

/** A timestamp as Postgres reads it: one without a zone is taken as UTC. */
function timestampText(text: string): string {
  const iso = text.replace(' ', 'T');
  return HAS_ZONE.test(iso.slice(10)) ? iso : `${iso}Z`;
}

export function kindOf(value: unknown): ColumnType | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isFinite(value) ? 'numeric' : 'text';
  if (typeof value === 'bigint' || isLosslessNumber(value)) return 'numeric';
  if (typeof value === 'string') return textKind(value);
  if (typeof value === 'object') return 'jsonb';
  return 'text';
}

/**
 * The type holding both: jsonb holds anything, text holds every scalar, a timestamp holds a
 * date (midnight UTC).
 */
export function widen(current: ColumnType | null, next: ColumnType | null): ColumnType | null {
  if (!current) return next;
  if (!next || current === next) return current;
  if (current === 'jsonb' || next === 'jsonb') return 'jsonb';
  const pair = new Set([current, next]);
  if (pair.has('date') && pair.has('timestamptz')) return 'timestamptz';
  return 'text';
}

/**
 * The SQL converting a column of type `from` into `to`. `writtenText`: for a timestamptz column,
 * the column holding its values' text as fetched, which is what they become as text (a value
 * without one, stored before such columns were kept, is written in UTC).
 */
export function castExpression(
  column: string,
  from: ColumnType,
  to: ColumnType,
  writtenText?: string,
): string {
  if (from === to) return column;
  const utcText = `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
  const asText =
    from === 'timestamptz' ? (writtenText ? `COALESCE(${writtenText}, ${utcText})` : utcText) : undefined;
  if (to === 'jsonb') return `to_jsonb(${asText ?? column})`;
  if (to === 'timestamptz') return `(${column}::timestamp AT TIME ZONE 'UTC')`;
  return asText ?? `${column}::text`;
}

/** The writer's type for a column Postgres already has (pg_type.typname). */
export function pgTypeToColumnType(pgType: string): ColumnType {
  switch (pgType) {
    case 'bool':
      return 'boolean';
    case 'numeric':
    case 'int2':
    case 'int4':
    case 'int8':
    case 'float4':
    case 'float8':
      return 'numeric';
    case 'jsonb':
    case 'json':
      return 'jsonb';
    case 'date':
      return 'date';
    case 'timestamptz':
      return 'timestamptz';
    default:
      return 'text';
  }
}

/**
 * Column name from a record key: lower-case letters, digits and underscores, never starting with
 * `_`. Word boundaries of camelCase keys are kept (`createdAt` -> `created_at`, `HTTPStatus` ->
 * `http_status`).
 */
export function safeColumnName(key: string): string {
  return legacyColumnName(
    key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2'),
  );
}

/**
 * The name tables created before camelCase boundaries were kept use (`createdAt` -> `createdat`):
 * an existing table keeps its columns.
 */
export function legacyColumnName(key: string): string {
  let name = key
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (!name) name = 'column';
  if (/^\d/.test(name)) name = `c_${name}`;
  return name.slice(0, 55);
}

// eslint-disable-next-line no-control-regex -- NUL is exactly what Postgres text cannot hold
const NUL = /\u0000/g;

// eslint-disable-next-line no-control-regex -- NUL is exactly what Postgres text cannot hold
const NEEDS_QUOTES = /[",\n\r\u0000]/;

/**
 * Text as a CSV field: as it is when nothing in it needs quotes (most values: no copy made),
 * else quoted with quotes doubled. Unquoted, an empty field would be NULL and `\.` alone on a
 * line the end of the data, so those two are quoted too.
 */
function csvText(text: string): string {
  if (text !== '' && text !== '\\.' && !NEEDS_QUOTES.test(text)) return text;
  if (text.includes('\u0000')) text = text.replaceAll('\u0000', '');
  return text.includes('"') ? `"${text.replaceAll('"', '""')}"` : `"${text}"`;
}

/** Whether a value holds a LosslessNumber (or a bigint) anywhere, which JSON.stringify cannot write exactly. */
function holdsExactNumber(value: unknown): boolean {
  if (typeof value === 'bigint') return true;
  if (value === null || typeof value !== 'object') return false;
  if (isLosslessNumber(value)) return true;
  if (Array.isArray(value)) return value.some(holdsExactNumber);
  for (const key in value) if (holdsExactNumber((value as Record<string, unknown>)[key])) return true;
  return false;
}

/**
 * JSON text keeping exact numbers (lossless-json writes a LosslessNumber as its digits). Values
 * without one, nearly all, take JSON.stringify: the same text, several times faster.
 */
function jsonText(value: unknown): string {
  const text = (holdsExactNumber(value) ? losslessStringify(value) : JSON.stringify(value)) ?? 'null';
  // Postgres jsonb refuses \u0000; the rare value holding one takes the slow path.
  if (!text.includes('\\u0000')) return text;
  return (
    losslessStringify(value, (_key, inner) => (typeof inner === 'string' ? inner.replace(NUL, '') : inner)) ??
    'null'
  );
}

/** One CSV field for COPY: NULL unquoted and empty, text and JSON quoted where they need it, numbers and booleans bare. */
export function csvField(value: unknown, type: ColumnType): string {
  if (value === null || value === undefined) return '';
  switch (type) {
    case 'numeric':
      return String(value);
    case 'date':
      return String(value);
    case 'timestamptz':
      // Checked as ISO 8601 when the column got its type: no character that CSV would quote. Most
      // APIs write UTC with a Z, which Postgres reads as it is.
      return typeof value === 'string' && value.endsWith('Z') ? value : timestampText(String(value));
    case 'boolean':
      return value ? 't' : 'f';
    case 'jsonb':
      return csvText(jsonText(value));
    default:
      return csvText(typeof value === 'object' && !isLosslessNumber(value) ? jsonText(value) : String(value));
  }
}

/**
 * The columns a run would create for these records, in first-seen order: each field's name and
 * its type after widening (fields only ever null are left out, as a run leaves them out).
 */
export function detectColumns(
  records: Record<string, unknown>[],
): Array<{ name: string; field: string; type: ColumnType }> {
  const types = new Map<string, ColumnType | null>();
  for (const record of records) {
    for (const key of Object.keys(record)) types.set(key, widen(types.get(key) ?? null, kindOf(record[key])));
  }
  const used = new Set<string>();
  const columns: Array<{ name: string; field: string; type: ColumnType }> = [];
  for (const [field, type] of types) {
    if (!type) continue;
    const base = field.startsWith('_') ? `_${safeColumnName(field)}` : safeColumnName(field);
    let name = base;
    for (let suffix = 2; used.has(name); suffix++) name = `${base}_${suffix}`;
    used.add(name);
    columns.push({ name, field, type });
  }
  return columns;
}
