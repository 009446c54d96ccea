/** Turning a dataset's typed columns and rows into what MUI X DataGrid wants, without React. */

/** `wallClock`: a date and time without offset, shown as written (never moved to the browser's zone). */
export type GridType = 'number' | 'boolean' | 'date' | 'dateTime' | 'wallClock' | 'string';

export interface DatasetColumn {
  name: string;
  label?: string;
  type?: string;
}

export interface GridColumnSpec {
  field: string;
  headerName: string;
  type: GridType;
  minWidth: number;
  flex: number;
  /** Whole numbers that name rather than count (years, ids, codes) read wrong with digit grouping. */
  plainDigits: boolean;
}

const NAMING_NUMBER = /(^|[^a-z])(year|yr|id|code|zip|postcode|postal)s?([^a-z]|$)/i;

/** Integer columns such as `discovery_year` or `customer_id` show 2013, not 2,013. */
export function isNamingNumber(name: string, type: string | undefined): boolean {
  return type === 'integer' && NAMING_NUMBER.test(name);
}

export function gridType(type: string | undefined): GridType {
  switch (type) {
    case 'integer':
    case 'numeric':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'date':
      return 'date';
    case 'timestamptz':
      return 'dateTime';
    case 'timestamp':
      return 'wallClock';
    default:
      return 'string';
  }
}

/**
 * Narrowest a column may get: on a phone the columns shrink to this, so a date or a date and time
 * must still fit whole (the grid scrolls sideways instead of cutting them off).
 */
const MIN_WIDTH: Record<GridType, number> = {
  string: 160,
  number: 120,
  boolean: 110,
  date: 130,
  dateTime: 200,
  wallClock: 200,
};

/** Column names may be plain strings (preview of a connector table) or typed dataset columns. */
export function gridColumns(columns: Array<DatasetColumn | string>): GridColumnSpec[] {
  return columns.map((column) => {
    const spec = typeof column === 'string' ? { name: column } : column;
    const type = gridType(spec.type);
    return {
      field: spec.name,
      headerName: spec.label || spec.name,
      type,
      minWidth: MIN_WIDTH[type],
      flex: 1,
      plainDigits: isNamingNumber(spec.name, spec.type),
    };
  });
}

/** Decimal digits a double always carries exactly. */
const EXACT_DOUBLE_DIGITS = 15;

function countDigits(text: string): number {
  return text
    .replace(/[^0-9]/g, '')
    .replace(/^0+/, '')
    .replace(/0+$/, '').length;
}

/**
 * Grid cell value for a raw JSON value: dates become Date, numeric strings numbers, objects JSON
 * text, date-times without offset their text. An empty string stays '' (null is no value).
 */
export function cellValue(raw: unknown, type: GridType): unknown {
  if (raw === null || raw === undefined) return null;
  if (type === 'number') {
    const number = typeof raw === 'number' ? raw : Number(raw);
    if (!Number.isFinite(number)) return null;
    // The server sends numbers too wide for a JS number as exact text: show that text, not a rounding.
    return typeof raw === 'string' && countDigits(raw) > EXACT_DOUBLE_DIGITS ? raw : number;
  }
  if (type === 'date' || type === 'dateTime') {
    const date = new Date(raw as string);
    return Number.isNaN(date.getTime()) ? null : date;
  }
  // The server sends it in ISO form without offset; a Date would read it in the browser's zone.
  if (type === 'wallClock') return String(raw).replace('T', ' ');
  if (type === 'boolean') return raw === true || raw === 'true';
  return typeof raw === 'object' ? JSON.stringify(raw) : raw;
}

/**
 * Cell text the grid shows: numbers in full (digit groups, but never rounded to the grid's
 * default three decimals), plain digits for naming numbers, dates as the ISO dates they are.
 * Date-times keep the grid's local-time display.
 */
export function cellText(
  value: unknown,
  spec: Pick<GridColumnSpec, 'type' | 'plainDigits'>,
): string | undefined {
  if (value === null || value === undefined) return '';
  if (spec.type === 'number') {
    if (typeof value !== 'number' || spec.plainDigits) return String(value);
    return value.toLocaleString(undefined, { maximumFractionDigits: 20 });
  }
  if (spec.type === 'date' && value instanceof Date) return value.toISOString().slice(0, 10);
  return undefined;
}

/** Rows from the server, each given a grid id unique within the page (rows have no key of their own). */
export function gridRows(rows: Array<Record<string, unknown>>, columns: GridColumnSpec[], offset = 0) {
  return rows.map((row, index) => {
    const converted: Record<string, unknown> = { __rowId: offset + index };
    for (const column of columns) converted[column.field] = cellValue(row[column.field], column.type);
    return converted;
  });
}

/** Server sort parameter for the grid's sort model: `column` ascending or `-column` descending. */
export function sortParam(
  model: ReadonlyArray<{ field: string; sort?: 'asc' | 'desc' | null }>,
): string | undefined {
  const first = model.find((item) => item.sort);
  if (!first) return undefined;
  return first.sort === 'desc' ? `-${first.field}` : first.field;
}
