import { escapeLiteral } from 'pg';
import { dataTable, quoteIdentifier } from '../database/data-tables/data-table-names';
import { binaryExpression, type ExportColumn } from '../formats/binary-columns';
import type { SourceColumn, StreamPage, StreamSource } from './stream-source';

/** Tags every row of the general link with the dataset it came from. */
export const DATASET_ID_KEY = 'dataset_id';
export const DATASET_TITLE_KEY = 'dataset_title';
/** Postgres truncates identifiers (and so column aliases) longer than this many bytes. */
const MAX_IDENTIFIER_BYTES = 63;

/**
 * COPY options for rows that are already one JSON document each. The CSV format never escapes
 * backslashes (the text format would double those inside JSON strings); quote and delimiter are
 * control characters that JSON text cannot contain unescaped, so Postgres never quotes a row.
 */
export const JSON_LINES_COPY_OPTIONS = `(FORMAT csv, DELIMITER E'\\x02', QUOTE E'\\x01')`;

/**
 * Column value as CSV text that spreadsheets read well: booleans as true/false (not t/f) and
 * timestamps in ISO 8601 (with a zone they end in +00:00, the session runs in UTC; without one
 * they carry no offset, the wall clock as written). COPY writes an empty string `""` and NULL as
 * nothing, so the two stay apart.
 */
export function csvExpression(column: SourceColumn): string {
  const identifier = quoteIdentifier(column.name);
  if (column.pgType === 'bool') return `${identifier}::text`;
  if (column.pgType === 'timestamptz' || column.pgType === 'timestamp')
    return `(to_json(${identifier}) #>> '{}')`;
  return identifier;
}

/** Column value for row_to_json: `json` is normalised to jsonb so no raw newline can end up in a row. */
export function jsonExpression(column: SourceColumn): string {
  const identifier = quoteIdentifier(column.name);
  return column.pgType === 'json' ? `${identifier}::jsonb` : identifier;
}

/**
 * JSON object keys for the columns: the original labels where Postgres can carry them as an alias
 * (unique, at most 63 bytes), else the column's SQL name, suffixed until unique.
 */
export function jsonKeys(columns: SourceColumn[], reserved: string[] = []): string[] {
  const used = new Set(reserved);
  const fits = (key: string) =>
    key.length > 0 && Buffer.byteLength(key) <= MAX_IDENTIFIER_BYTES && !used.has(key);
  return columns.map((column) => {
    let key = [column.label, column.name].find(fits);
    for (let suffix = 2; key === undefined; suffix++) {
      const candidate = `${column.name.slice(0, MAX_IDENTIFIER_BYTES - 8)}_${suffix}`;
      if (fits(candidate)) key = candidate;
    }
    used.add(key);
    return key;
  });
}

function pageClause(page: StreamPage): string {
  const offset = page.offset > 0 ? ` OFFSET ${Math.trunc(page.offset)}` : '';
  const limit = page.limit === undefined ? '' : ` LIMIT ${Math.trunc(page.limit)}`;
  return `${offset}${limit}`;
}

/** The row filters' condition (literals: COPY takes no parameters), or nothing without filters. */
function whereClause(where: string | undefined): string {
  return where && where !== 'TRUE' ? ` WHERE ${where}` : '';
}

/** One dataset as CSV rows (the header is written separately, from the labels). */
export function sourceCsvCopy(source: StreamSource, page: StreamPage, where?: string): string {
  const select = source.columns.map(csvExpression).join(', ');
  return `COPY (SELECT ${select} FROM ${dataTable(source.tableName)}${whereClause(where)}${pageClause(page)}) TO STDOUT (FORMAT csv)`;
}

/** One dataset as one JSON object per line, keyed by the column labels. */
export function sourceJsonCopy(source: StreamSource, page: StreamPage, where?: string): string {
  const keys = jsonKeys(source.columns);
  const select = source.columns.map(
    (column, index) => `${jsonExpression(column)} AS ${quoteIdentifier(keys[index])}`,
  );
  const rows = `SELECT ${select.join(', ')} FROM ${dataTable(source.tableName)}${whereClause(where)}${pageClause(page)}`;
  return `COPY (SELECT row_to_json(r) FROM (${rows}) r) TO STDOUT ${JSON_LINES_COPY_OPTIONS}`;
}

function tagColumns(source: StreamSource): string[] {
  return [
    `${escapeLiteral(source.id)}::uuid AS ${quoteIdentifier(DATASET_ID_KEY)}`,
    `${escapeLiteral(source.title)}::text AS ${quoteIdentifier(DATASET_TITLE_KEY)}`,
  ];
}

/** Rows a branch of the general link may need: no more than the page can show. */
function branchLimit(page: StreamPage): string {
  return page.limit === undefined ? '' : ` LIMIT ${Math.trunc(page.offset) + Math.trunc(page.limit)}`;
}

/**
 * Every dataset's rows one after another (Append keeps branch order without parallel workers), each
 * row a JSON object that starts with its dataset's id and title.
 */
export function generalJsonCopy(sources: StreamSource[], page: StreamPage): string {
  const branches = sources.map((source) => {
    const keys = jsonKeys(source.columns, [DATASET_ID_KEY, DATASET_TITLE_KEY]);
    const select = [
      ...tagColumns(source),
      ...source.columns.map(
        (column, index) => `${jsonExpression(column)} AS ${quoteIdentifier(keys[index])}`,
      ),
    ];
    const rows = `SELECT ${select.join(', ')} FROM ${dataTable(source.tableName)}${branchLimit(page)}`;
    return `(SELECT row_to_json(r) AS row FROM (${rows}) r)`;
  });
  return `COPY (SELECT row FROM (${branches.join(' UNION ALL ')}) rows${pageClause(page)}) TO STDOUT ${JSON_LINES_COPY_OPTIONS}`;
}

/** A source's column keys in the general link: the same in its JSON objects and its CSV header. */
function generalKeys(source: StreamSource): string[] {
  return jsonKeys(source.columns, [DATASET_ID_KEY, DATASET_TITLE_KEY]);
}

/**
 * Labels of the general CSV: the tags, then every distinct column key in order of first
 * appearance. Keys are unique within a dataset, so a repeated label (a, a) keeps both columns.
 */
export function generalCsvLabels(sources: StreamSource[]): string[] {
  const labels = new Set<string>();
  for (const source of sources) for (const key of generalKeys(source)) labels.add(key);
  return [DATASET_ID_KEY, DATASET_TITLE_KEY, ...labels];
}

/** One CSV with a shared header: a dataset leaves the columns it lacks empty. */
export function generalCsvCopy(sources: StreamSource[], page: StreamPage): string {
  const labels = generalCsvLabels(sources).slice(2);
  const branches = sources.map((source) => {
    const keys = generalKeys(source);
    const byKey = new Map(source.columns.map((column, index) => [keys[index], column]));
    const cells = labels.map((label) => {
      const column = byKey.get(label);
      return column ? `(${csvExpression(column)})::text` : 'NULL::text';
    });
    const select = [`${escapeLiteral(source.id)}::text`, `${escapeLiteral(source.title)}::text`, ...cells];
    return `(SELECT ${select.join(', ')} FROM ${dataTable(source.tableName)}${branchLimit(page)})`;
  });
  return `COPY (SELECT * FROM (${branches.join(' UNION ALL ')}) rows${pageClause(page)}) TO STDOUT (FORMAT csv)`;
}

export function columnLabel(column: SourceColumn): string {
  return column.label || column.name;
}

/** One RFC 4180 header line, quoted the way Postgres quotes the data rows below it. */
export function csvHeaderLine(labels: string[]): string {
  const cell = (value: string) =>
    /[",\r\n]/.test(value) || value.trim() !== value ? `"${value.replace(/"/g, '""')}"` : value;
  return `${labels.map(cell).join(',')}\n`;
}

/** The page's rows of one source with `select`, as a subquery every typed-format statement shares. */
function sourceRows(source: StreamSource, select: string, page: StreamPage, where?: string): string {
  return `SELECT ${select} FROM ${dataTable(source.tableName)}${whereClause(where)}${pageClause(page)}`;
}

/** One source's rows in Postgres's binary COPY format, for the typed writers (Parquet, Excel). */
export function sourceBinaryCopy(
  source: StreamSource,
  columns: ExportColumn[],
  page: StreamPage,
  where?: string,
): string {
  const select = columns.map(binaryExpression).join(', ');
  return `COPY (${sourceRows(source, select, page, where)}) TO STDOUT (FORMAT binary)`;
}

/**
 * Per numeric column of the page's rows, as `scale_<i>` and `largest_<i>`: the most digits after
 * the point, and the largest magnitude as text, which is `NaN` or `Infinity` when such a value
 * occurs (NaN sorts above every number). One plain aggregate scan, no per-row filters.
 */
export function numericShapesQuery(
  source: StreamSource,
  numericColumns: SourceColumn[],
  page: StreamPage,
  where?: string,
): string {
  const select = numericColumns.map((column) => quoteIdentifier(column.name)).join(', ');
  const aggregates = numericColumns.map((column, index) => {
    const value = quoteIdentifier(column.name);
    return `max(scale(${value})) AS scale_${index}, max(abs(${value}))::text AS largest_${index}`;
  });
  return `SELECT ${aggregates.join(', ')} FROM (${sourceRows(source, select, page, where)}) rows`;
}

/** How many rows the page has, counting no further than `cap`. */
export function countUpToQuery(source: StreamSource, cap: number, page: StreamPage, where?: string): string {
  const limit = page.limit === undefined ? cap : Math.min(page.limit, cap);
  return `SELECT count(*)::int AS rows FROM (${sourceRows(source, '1', { offset: page.offset, limit }, where)}) rows`;
}
