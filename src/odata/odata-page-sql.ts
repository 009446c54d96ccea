import type { Token } from '@odata/parser';
import { dataTable, quoteIdentifier, ROW_ID_COLUMN } from '../database/data-tables/data-table-names';
import { EntityProperty, EntitySet, ROW_NUMBER_KEY } from './odata-entity-set';
import { filterSql, TABLE_ALIAS } from './odata-filter-sql';
import { badOption, QueryOptions } from './odata-query-options';

/** Where a page starts: rows already answered and, when paging by key, the last key answered. */
export interface PagePosition {
  emitted: number;
  lastKey?: string;
}

/** A statement and the filter values it reads (see filterValueSettings): it takes no parameters. */
export interface Statement {
  text: string;
  values: string[];
}

/** A page read: its statement, whether pages follow the key, and the columns worth an index. */
export interface PageStatement extends Statement {
  keyset: boolean;
  indexColumns: string[];
}

/**
 * Starts the line a page statement ends with when rows are left after the page, in place of the
 * row that proves it: the mark, then the page's last key (empty without a row id). Rows start with `{`.
 */
export const PAGE_TRAILER_MARK = '#';

const TOKEN_PATTERN = /^(?:k(-?[0-9]{1,19})\.([0-9]{1,15})|o([0-9]{1,15}))$/;

/** `$skiptoken` of the page after `rows` more rows: the last key when paging by key, else the count. */
export function nextSkipToken(keyset: boolean, position: PagePosition, lastKey: string | undefined): string {
  return keyset ? `k${lastKey}.${position.emitted}` : `o${position.emitted}`;
}

/** The position a `$skiptoken` of ours stands for; 400 for anything else. */
export function readSkipToken(token: string | undefined): PagePosition {
  if (token === undefined) return { emitted: 0 };
  const match = TOKEN_PATTERN.exec(token);
  if (!match) throw badOption('$skiptoken is not one this service handed out');
  if (match[3] !== undefined) return { emitted: Number(match[3]) };
  return { lastKey: match[1], emitted: Number(match[2]) };
}

/** EDM types an IEEE754Compatible client reads as strings: a double would lose their digits. */
const STRING_NUMBER_TYPES = new Set(['Edm.Int64', 'Edm.Decimal']);

/** Whether a property's values go out as JSON strings for this request. */
function numberAsString(property: EntityProperty, ieee754Compatible: boolean): boolean {
  return ieee754Compatible && STRING_NUMBER_TYPES.has(property.edmType);
}

/**
 * The value a property answers with: anything without a JSON form as text, and times without
 * zone at offset zero. Edm.DateTimeOffset is the only date-time OData has; at +00:00 its digits
 * are the wall clock as written, which Power Query keeps (it only shifts on an explicit ToLocal).
 */
function outputExpression(property: EntityProperty, ieee754Compatible: boolean): string {
  const column = `${TABLE_ALIAS}.${quoteIdentifier(property.column!)}`;
  if (property.pgType === 'timestamp') return `(${column} AT TIME ZONE 'UTC')`;
  if (property.edmType === 'Edm.String' && property.pgType !== 'text') return `${column}::text`;
  if (numberAsString(property, ieee754Compatible)) return `${column}::text`;
  return column;
}

/** The properties to answer, in entity type order; 400 for a name the entity set lacks. */
export function selectedProperties(set: EntitySet, select: string[] | undefined): EntityProperty[] {
  if (!select) return set.properties;
  const wanted = new Set(select);
  for (const name of wanted) {
    if (!set.properties.some((property) => property.name === name))
      throw badOption(`${set.name} has no property ${name}`);
  }
  return set.properties.filter((property) => wanted.has(property.name));
}

function whereClause(conditions: string[]): string {
  return conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
}

/** The rows `$count` and `/$count` count: the filter's, whatever the paging. */
export function countStatement(set: EntitySet, filter: Token | undefined): Statement {
  const values: string[] = [];
  const where = filter ? [filterSql(filter, set, values).sql] : [];
  return {
    text: `SELECT count(*)::int8::text AS count FROM ${dataTable(set.source.tableName)} ${TABLE_ALIAS}${whereClause(where)}`,
    values,
  };
}

/** ORDER BY terms for `$orderby`: OData puts nulls first going up and last going down. */
function orderTerms(set: EntitySet, options: QueryOptions): string[] {
  return options.orderBy.map(({ property: name, descending }) => {
    const property = set.properties.find((candidate) => candidate.name === name);
    if (!property) throw badOption(`${set.name} has no property ${name}`);
    if (!property.column) throw badOption(`${name} is the row's position and cannot be ordered by`);
    const column = `${TABLE_ALIAS}.${quoteIdentifier(property.column)}`;
    return descending ? `${column} DESC NULLS LAST` : `${column} ASC NULLS FIRST`;
  });
}

/** The row as a JSON object, led by its row number when the entity set is keyed by it. */
function rowJson(numberFrom: number | undefined, ord: string, ieee754Compatible: boolean): string {
  if (numberFrom === undefined) return 'row_to_json(v)::text';
  // v leads with a null row number (see pageStatement); its text is swapped for the number.
  const nullKey = `{${JSON.stringify(ROW_NUMBER_KEY)}:`;
  // The row number is an Edm.Int64 like any other.
  const quote = ieee754Compatible ? `'"'` : `''`;
  return `'${nullKey}' || ${quote} || (${numberFrom} + ${ord}) || ${quote} || substr(row_to_json(v)::text, ${nullKey.length + 'null'.length + 1})`;
}

/**
 * One page as JSON text, one row object a line, in page order: the first `limit` rows, then,
 * when one more row exists, a trailer line (PAGE_TRAILER_MARK and the key of the page's last
 * row) instead of that row, so one read tells the rows, whether more follow and where the next
 * page starts. Rows go out as they are read, through COPY, never held as a whole page.
 *
 * Without an order, or ordered by the row id alone, pages follow the row id (keyset): each starts
 * after the last key of the one before, through the row-id index, so a late page costs what the
 * first one does. Any other order pages by offset, with the row id (or the physical position)
 * breaking ties so pages never overlap. With `numberFrom`, each object gets the row-number key
 * first (tables without a row id): the page's first row has number `numberFrom + 1`.
 */
export function pageStatement(
  set: EntitySet,
  options: QueryOptions,
  position: PagePosition,
  limit: number,
  numberFrom?: number,
): PageStatement {
  const values: string[] = [];
  const conditions: string[] = [];
  const indexColumns: string[] = [];
  if (options.filter) {
    const filter = filterSql(options.filter, set, values);
    conditions.push(filter.sql);
    indexColumns.push(...filter.rangeColumns);
  }
  const hasRowId = set.key.column === ROW_ID_COLUMN;
  const byKeyOnly =
    options.orderBy.length === 0 ||
    (options.orderBy.length === 1 && options.orderBy[0].property === ROW_ID_COLUMN);
  const outputs = selectedProperties(set, options.select)
    .filter((property) => property.column)
    .map(
      (property) =>
        `${outputExpression(property, options.ieee754Compatible)} AS ${quoteIdentifier(property.name)}`,
    );
  const page: PageParts = { table: dataTable(set.source.tableName), conditions, outputs, limit };
  if (hasRowId && byKeyOnly) {
    indexColumns.push(ROW_ID_COLUMN);
    const text = keysetPageText(page, options.orderBy[0]?.descending ?? false, position, options.skip);
    return { text, values, keyset: true, indexColumns };
  }
  if (numberFrom !== undefined) outputs.unshift(`NULL::int8 AS ${quoteIdentifier(ROW_NUMBER_KEY)}`);
  const terms = orderTerms(set, options);
  const rowId = `${TABLE_ALIAS}.${quoteIdentifier(ROW_ID_COLUMN)}`;
  // A table without a row id and without an order streams in stored order, as the stream links do.
  const order = terms.length === 0 ? [] : [...terms, hasRowId ? rowId : `${TABLE_ALIAS}.ctid`];
  const text = offsetPageText(page, order, options.skip + position.emitted, hasRowId ? rowId : 'NULL', {
    numberFrom,
    ieee754Compatible: options.ieee754Compatible,
  });
  return { text, values, keyset: false, indexColumns };
}

/** What every page statement reads: the table, the filter's conditions, the answered columns. */
interface PageParts {
  table: string;
  conditions: string[];
  outputs: string[];
  limit: number;
}

/**
 * A page in row-id order: the rows straight off the row-id index, then the trailer from a second,
 * narrow walk of the same index (keys only) that finds the page's last key and whether a row
 * follows it. Append runs its branches in order (streams run without parallel workers). Both walks
 * start at the last key answered, so a late page costs what the first one does.
 */
function keysetPageText(page: PageParts, descending: boolean, position: PagePosition, skip: number): string {
  const rowId = `${TABLE_ALIAS}.${quoteIdentifier(ROW_ID_COLUMN)}`;
  const conditions = [...page.conditions];
  if (position.lastKey !== undefined) {
    // The key is ours (readSkipToken let digits through only), written as a number.
    conditions.push(`${rowId} ${descending ? '<' : '>'} ${BigInt(position.lastKey)}::int8`);
  }
  const offset = position.lastKey === undefined ? skip : 0;
  const filtered = `${whereClause(conditions)} ORDER BY ${rowId} ${descending ? 'DESC' : 'ASC'}`;
  const rows =
    `SELECT row_to_json(v)::text FROM ${page.table} ${TABLE_ALIAS} ` +
    `CROSS JOIN LATERAL (SELECT ${page.outputs.join(', ')}) v${filtered}` +
    (offset > 0 ? ` OFFSET ${offset}` : '') +
    ` LIMIT ${page.limit}`;
  if (page.limit === 0) return rows;
  // The page's last key and the key after it: two keys mean more rows follow.
  const lastOfTwo = descending ? 'max' : 'min';
  const trailer =
    `SELECT '${PAGE_TRAILER_MARK}' || ${lastOfTwo}(k) FROM (SELECT ${rowId} AS k FROM ${page.table} ` +
    `${TABLE_ALIAS}${filtered} OFFSET ${offset + page.limit - 1} LIMIT 2) keys HAVING count(*) = 2`;
  return `(${rows}) UNION ALL (${trailer})`;
}

/**
 * A page in any other order, by offset: a window numbers the rows as the query sorts them (so
 * the planner sorts once) and the row after the page becomes the trailer, carrying the key of
 * the row before it. `ord` counts from before the offset: the page's rows are offset+1 to offset+limit.
 */
function offsetPageText(
  page: PageParts,
  order: string[],
  offset: number,
  rowId: string,
  numbering: { numberFrom: number | undefined; ieee754Compatible: boolean },
): string {
  const orderBy = order.length > 0 ? ` ORDER BY ${order.join(', ')}` : '';
  const ord = `(row_number() OVER w - ${offset})`;
  const lastKey = `coalesce(lag(${rowId}::text) OVER w, '')`;
  const line = `CASE WHEN ${ord} <= ${page.limit} THEN ${rowJson(numbering.numberFrom, ord, numbering.ieee754Compatible)} ELSE '${PAGE_TRAILER_MARK}' || ${lastKey} END`;
  return (
    `SELECT ${line} FROM ${page.table} ${TABLE_ALIAS} ` +
    `CROSS JOIN LATERAL (SELECT ${page.outputs.join(', ')}) v` +
    whereClause(page.conditions) +
    ` WINDOW w AS (${orderBy.trim()})` +
    orderBy +
    (offset > 0 ? ` OFFSET ${offset}` : '') +
    ` LIMIT ${page.limit + 1}`
  );
}
