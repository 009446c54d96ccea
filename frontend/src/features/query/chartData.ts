/** Charting a query result, without React: which columns can be plotted and the points to plot. */

export const CHART_KINDS = ['bar', 'line', 'scatter'] as const;
export type ChartKind = (typeof CHART_KINDS)[number];

/** Points drawn at most: more makes the chart unreadable and the page slow. */
export const CHART_POINT_LIMIT = 2000;

const NUMERIC_TYPES = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'numeric', 'money', 'oid']);

export interface ResultColumn {
  name: string;
  type: string;
}

export function isNumericColumn(column: ResultColumn): boolean {
  return NUMERIC_TYPES.has(column.type);
}

/** The first guess: X the first column that is not a number (or the first), Y the first number after it. */
export function defaultAxes(columns: ResultColumn[]): { x: number; y: number } | null {
  const numeric = columns
    .map((column, index) => (isNumericColumn(column) ? index : -1))
    .filter((index) => index >= 0);
  if (numeric.length === 0) return null;
  const label = columns.findIndex((column) => !isNumericColumn(column));
  const x = label >= 0 ? label : 0;
  const y = numeric.find((index) => index !== x) ?? numeric[0];
  return { x, y };
}

/** Y values as numbers (rows whose Y is not a number are left out); X as a number for scatter, else as text. */
export function chartPoints(
  rows: unknown[][],
  x: number,
  y: number,
  kind: ChartKind,
): Array<{ x: number | string; y: number }> {
  const points: Array<{ x: number | string; y: number }> = [];
  for (const row of rows) {
    if (points.length === CHART_POINT_LIMIT) break;
    const value = Number(row[y]);
    if (row[y] === null || row[y] === '' || !Number.isFinite(value)) continue;
    if (kind === 'scatter') {
      const position = Number(row[x]);
      if (row[x] === null || !Number.isFinite(position)) continue;
      points.push({ x: position, y: value });
    } else {
      points.push({ x: row[x] === null ? '(null)' : String(row[x]), y: value });
    }
  }
  return points;
}
