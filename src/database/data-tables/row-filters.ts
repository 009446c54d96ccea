import { escapeLiteral } from 'pg';
import { quoteIdentifier } from './data-table-names';

/**
 * Per-column row filters for grids and streams: `column:op:value`, e.g. `amount:gte:10`,
 * `name:contains:berl`, `note:empty`. Each one becomes a condition on a quoted column with its
 * value bound as a parameter ($n) or, where the statement cannot take parameters (COPY), as an
 * escaped literal with a cast; the client's text never becomes SQL. Several filters must all hold.
 */
export const FILTER_OPERATORS = [
  'contains',
  'equals',
  'gt',
  'gte',
  'lt',
  'lte',
  'empty',
  'notempty',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** The column types a filter can meet (the dataset column types of the grid). */
export type FilterColumnType =
  'integer' | 'numeric' | 'boolean' | 'date' | 'timestamp' | 'timestamptz' | 'text' | 'jsonb';

export interface FilterColumn {
  name: string;
  type: FilterColumnType;
}

export interface RowFilter {
  column: FilterColumn;
  operator: FilterOperator;
  /** Absent for empty / notempty. */
  value?: string;
}

/** A filter the client got wrong, with the message it is told (the caller answers 400). */
export class RowFilterError extends Error {}

const RANGE_OPERATORS: ReadonlySet<FilterOperator> = new Set(['gt', 'gte', 'lt', 'lte']);
const VALUE_RULES: Record<FilterColumnType, { test: (value: string) => boolean; what: string } | undefined> =
  {
    integer: { test: (value) => /^-?\d{1,18}$/.test(value), what: 'a whole number' },
    numeric: { test: (value) => /^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(value), what: 'a number' },
    boolean: { test: (value) => /^(true|false)$/i.test(value), what: 'true or false' },
    date: {
      test: (value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)),
      what: 'a date (YYYY-MM-DD)',
    },
    // A wall-clock column compares wall clocks: an offset would be dropped silently, so none is taken.
    timestamp: {
      test: (value) =>
        /^\d{4}-\d{2}-\d{2}([T ][\d:.]+)?$/.test(value) && !Number.isNaN(Date.parse(value.replace(' ', 'T'))),
      what: 'a date or time without offset (ISO 8601)',
    },
    timestamptz: {
      test: (value) =>
        /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}(:?\d{2})?)?)?$/.test(value) &&
        !Number.isNaN(Date.parse(value)),
      what: 'a date or time (ISO 8601)',
    },
    text: undefined,
    jsonb: undefined,
  };
const SQL_TYPES: Record<FilterColumnType, string> = {
  integer: 'bigint',
  numeric: 'numeric',
  boolean: 'boolean',
  date: 'date',
  timestamp: 'timestamp',
  timestamptz: 'timestamptz',
  text: 'text',
  jsonb: 'jsonb',
};

/** Reads `filter` query values (one or many) against the table's columns; throws RowFilterError. */
export function parseRowFilters(raw: string | string[] | undefined, columns: FilterColumn[]): RowFilter[] {
  if (raw === undefined) return [];
  const texts = Array.isArray(raw) ? raw : [raw];
  if (texts.length > 20) throw new RowFilterError('At most 20 filters can be combined.');
  return texts.map((text) => parseOne(String(text), columns));
}

function parseOne(text: string, columns: FilterColumn[]): RowFilter {
  const first = text.indexOf(':');
  const second = first < 0 ? -1 : text.indexOf(':', first + 1);
  const name = first < 0 ? text : text.slice(0, first);
  const operator = (
    first < 0 ? '' : second < 0 ? text.slice(first + 1) : text.slice(first + 1, second)
  ).toLowerCase();
  const value = second < 0 ? undefined : text.slice(second + 1);
  const column = columns.find((candidate) => candidate.name === name);
  if (!column) throw new RowFilterError(`Cannot filter on "${name}": no such column.`);
  if (!(FILTER_OPERATORS as readonly string[]).includes(operator)) {
    throw new RowFilterError(
      `Filter "${text}": the operator must be one of ${FILTER_OPERATORS.join(', ')} (column:operator:value).`,
    );
  }
  const op = operator as FilterOperator;
  if (op === 'empty' || op === 'notempty') return { column, operator: op };
  if (value === undefined || value === '')
    throw new RowFilterError(`Filter "${text}" needs a value after the operator.`);
  if (value.length > 1000)
    throw new RowFilterError(`Filter on "${name}": the value is longer than 1000 characters.`);
  if (op === 'contains' && column.type !== 'text') {
    throw new RowFilterError(
      `Filter on "${name}": contains works on text columns only; "${name}" is ${column.type}.`,
    );
  }
  if (
    RANGE_OPERATORS.has(op) &&
    (column.type === 'text' || column.type === 'boolean' || column.type === 'jsonb')
  ) {
    throw new RowFilterError(
      `Filter on "${name}": ${op} works on numbers and dates only; "${name}" is ${column.type}.`,
    );
  }
  if (op === 'equals' && column.type === 'jsonb') {
    throw new RowFilterError(
      `Filter on "${name}": JSON columns can only be filtered with empty or notempty.`,
    );
  }
  const rule = VALUE_RULES[column.type];
  if (op !== 'contains' && rule && !rule.test(value.trim())) {
    throw new RowFilterError(`Filter on "${name}": "${value}" is not ${rule.what}.`);
  }
  return { column, operator: op, value: op === 'contains' ? value : value.trim() };
}

/** Puts a value into the statement: a $n parameter, or an escaped literal for COPY. */
export type Bind = (value: string) => string;

/** Binds values as $n parameters appended to `params`. */
export function parameterBinder(params: unknown[]): Bind {
  return (value) => {
    params.push(value);
    return `$${params.length}`;
  };
}

/** Binds values as escaped literals, for statements that take no parameters (COPY). */
export const literalBinder: Bind = (value) => escapeLiteral(value);

/** The filters as one SQL condition on `alias` (or `TRUE` when there are none). */
export function rowFilterCondition(filters: RowFilter[], bind: Bind, alias?: string): string {
  if (filters.length === 0) return 'TRUE';
  return filters
    .map(({ column, operator, value }) => {
      const target = alias ? `${alias}.${quoteIdentifier(column.name)}` : quoteIdentifier(column.name);
      const typed = (text: string) => `${bind(text)}::${SQL_TYPES[column.type]}`;
      switch (operator) {
        case 'empty':
          return column.type === 'text' ? `(${target} IS NULL OR ${target} = '')` : `${target} IS NULL`;
        case 'notempty':
          return column.type === 'text'
            ? `(${target} IS NOT NULL AND ${target} <> '')`
            : `${target} IS NOT NULL`;
        case 'contains':
          return `strpos(lower(${target}), lower(${bind(value!)}::text)) > 0`;
        case 'equals':
          return `${target} = ${typed(value!)}`;
        case 'gt':
          return `${target} > ${typed(value!)}`;
        case 'gte':
          return `${target} >= ${typed(value!)}`;
        case 'lt':
          return `${target} < ${typed(value!)}`;
        case 'lte':
          return `${target} <= ${typed(value!)}`;
      }
    })
    .map((condition) => `(${condition})`)
    .join(' AND ');
}
