import { quoteIdentifier } from '../database/data-tables/data-table-names';

/** Alias the row queries give the table, so ORDER BY names its columns rather than the outputs. */
export const ROW_SOURCE = 'source';

/** The largest integer a JavaScript number holds exactly (Number.MAX_SAFE_INTEGER). */
const MAX_SAFE_INTEGER = '9007199254740991';
/** Decimal digits a double always carries exactly: a numeric with no more survives JSON.parse. */
const EXACT_DOUBLE_DIGITS = 15;

/** Column kinds whose values JSON.parse could round: 64-bit integers and arbitrary-precision numerics. */
export type WideNumberKind = 'integer' | 'numeric';

/**
 * A select-list entry for one column that keeps every value exact once the row is read as JSON:
 * numbers a JavaScript number holds stay JSON numbers, wider ones (a 19-digit id, a 20-digit
 * decimal) become their exact decimal text.
 */
export function jsonSafeColumn(name: string, kind: WideNumberKind | undefined): string {
  const column = `${ROW_SOURCE}.${quoteIdentifier(name)}`;
  const alias = quoteIdentifier(name);
  if (kind === 'integer') {
    return `CASE WHEN abs(${column}) <= ${MAX_SAFE_INTEGER} THEN to_jsonb(${column}) ELSE to_jsonb(${column}::text) END AS ${alias}`;
  }
  if (kind === 'numeric') {
    // Significant digits: the text without sign, point, trailing zeros of the scale or leading zeros.
    // NaN and Infinity pass as numbers here because to_jsonb already quotes them.
    const digits = `length(ltrim(translate(trim_scale(${column})::text, '-.', ''), '0'))`;
    const inDoubleRange = `(${column} = 0 OR abs(${column}) BETWEEN 1e-300 AND 1e300 OR ${column} IN ('NaN', 'Infinity', '-Infinity'))`;
    return `CASE WHEN ${digits} <= ${EXACT_DOUBLE_DIGITS} AND ${inDoubleRange} THEN to_jsonb(${column}) ELSE to_jsonb(${column}::text) END AS ${alias}`;
  }
  return `${column} AS ${alias}`;
}

/** The wide-number kind of a Postgres type (pg_type.typname). */
export function wideNumberKind(pgType: string): WideNumberKind | undefined {
  if (pgType === 'int8') return 'integer';
  if (pgType === 'numeric') return 'numeric';
  return undefined;
}
