/** Postgres types a fetched value may land in, from the narrowest to the widest. */
export type ColumnType = 'boolean' | 'numeric' | 'text' | 'jsonb';

export function kindOf(value: unknown): ColumnType | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isFinite(value) ? 'numeric' : 'text';
  if (typeof value === 'object') return 'jsonb';
  return 'text';
}

/** The type holding both: jsonb holds anything, text holds every scalar. */
export function widen(current: ColumnType | null, next: ColumnType | null): ColumnType | null {
  if (!current) return next;
  if (!next || current === next) return current;
  if (current === 'jsonb' || next === 'jsonb') return 'jsonb';
  return 'text';
}

/** The SQL converting a column of type `from` into `to`. */
export function castExpression(column: string, from: ColumnType, to: ColumnType): string {
  if (from === to) return column;
  return to === 'jsonb' ? `to_jsonb(${column})` : `${column}::text`;
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
    default:
      return 'text';
  }
}

/** Column name from a record key: lower-case letters, digits and underscores, never starting with `_`. */
export function safeColumnName(key: string): string {
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

function quoted(text: string): string {
  if (text.includes('\u0000')) text = text.replace(NUL, '');
  return text.includes('"') ? `"${text.replace(/"/g, '""')}"` : `"${text}"`;
}

function jsonText(value: unknown): string {
  const text = JSON.stringify(value);
  // Postgres jsonb refuses \u0000; the rare value holding one takes the slow path.
  if (!text.includes('\\u0000')) return text;
  return JSON.stringify(value, (_key, inner) => (typeof inner === 'string' ? inner.replace(NUL, '') : inner));
}

/** One CSV field for COPY: NULL unquoted and empty, text and JSON quoted, numbers and booleans bare. */
export function csvField(value: unknown, type: ColumnType): string {
  if (value === null || value === undefined) return '';
  switch (type) {
    case 'numeric':
      return String(value);
    case 'boolean':
      return value ? 't' : 'f';
    case 'jsonb':
      return quoted(jsonText(value));
    default:
      return quoted(typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
}
