import { quoteIdentifier } from '../database/data-tables/data-table-names';

/** How a column travels in a binary COPY and which typed value the writers make of it. */
export type ValueKind =
  | 'integer'
  | 'decimal'
  /** A numeric written as its exact text: NaN/Infinity occur, or more than 38 digits. */
  | 'numeric-text'
  | 'float'
  | 'boolean'
  | 'date'
  | 'timestamp'
  | 'timestamptz'
  | 'text';

/** Widest decimal Parquet readers take as DECIMAL (Arrow's Decimal128). */
export const MAX_DECIMAL_PRECISION = 38;

/** A column to write: the name it gets in the file, its Postgres type, and for numerics their shape. */
export interface ExportColumn {
  /** SQL name in the table. */
  name: string;
  /** Header in the file (unique). */
  label: string;
  pgType: string;
  /** Digits of a numeric column over the rows written; text when it does not fit a DECIMAL. */
  decimal?: DecimalShape;
}

export interface DecimalShape {
  precision: number;
  scale: number;
}

const KIND_OF_TYPE: Record<string, ValueKind> = {
  int2: 'integer',
  int4: 'integer',
  int8: 'integer',
  numeric: 'decimal',
  float4: 'float',
  float8: 'float',
  bool: 'boolean',
  date: 'date',
  timestamp: 'timestamp',
  timestamptz: 'timestamptz',
};

export function valueKind(column: ExportColumn): ValueKind {
  const kind = KIND_OF_TYPE[column.pgType] ?? 'text';
  if (kind === 'decimal' && !column.decimal) return 'numeric-text';
  return kind;
}

/**
 * The column as a binary COPY should send it: typed values as they are, floats widened to
 * float8, and anything else (text, jsonb, json, uuid, time) as its text, so one decoder serves.
 */
export function binaryExpression(column: ExportColumn): string {
  const identifier = quoteIdentifier(column.name);
  const kind = KIND_OF_TYPE[column.pgType] ?? 'text';
  if (kind === 'float') return `${identifier}::float8`;
  if (kind === 'text') return `${identifier}::text`;
  return identifier;
}
