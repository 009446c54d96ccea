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

export interface Statement {
  text: string;
  values: unknown[];
}

/** A page read: its statement, whether pages follow the key, and the columns worth an index. */
export interface PageStatement extends Statement {
  keyset: boolean;
  indexColumns: string[];
  /** Rows skipped before the page (OFFSET): `ord` of the page's first row is this plus one. */
  offset: number;
}

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

/** The value a property answers with: times without zone as UTC, anything without a JSON form as text. */
function outputExpression(property: EntityProperty): string {
  const column = `${TABLE_ALIAS}.${quoteIdentifier(property.column!)}`;
  if (property.pgType === 'timestamp') return `(${column} AT TIME ZONE 'UTC')`;
  if (property.edmType === 'Edm.String' && property.pgType !== 'text') return `${column}::text`;
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
  const values: unknown[] = [];
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

/**
 * One page (`limit` rows) as `(k, j)` rows: the row id (when the table has one) and the row as
 * a JSON object of the selected properties. Without an order, or ordered by the row id alone,
 * pages follow the row id (keyset): each starts after the last key of the one before, through
 * the row-id index, so a late page costs what the first one does. Any other order pages by
 * offset, with the row id (or the physical position) breaking ties so pages never overlap.
 */
export function pageStatement(
  set: EntitySet,
  options: QueryOptions,
  position: PagePosition,
  limit: number,
): PageStatement {
  const values: unknown[] = [];
  const conditions: string[] = [];
  const indexColumns: string[] = [];
  if (options.filter) {
    const filter = filterSql(options.filter, set, values);
    conditions.push(filter.sql);
    indexColumns.push(...filter.rangeColumns);
  }
  const hasRowId = set.key.column === ROW_ID_COLUMN;
  const rowId = `${TABLE_ALIAS}.${quoteIdentifier(ROW_ID_COLUMN)}`;
  const byKeyOnly =
    options.orderBy.length === 0 ||
    (options.orderBy.length === 1 && options.orderBy[0].property === ROW_ID_COLUMN);
  const keyset = hasRowId && byKeyOnly;
  let order: string[];
  let offset: number;
  if (keyset) {
    const descending = options.orderBy[0]?.descending ?? false;
    if (position.lastKey !== undefined) {
      values.push(position.lastKey);
      conditions.push(`${rowId} ${descending ? '<' : '>'} $${values.length}::int8`);
    }
    order = [`${rowId} ${descending ? 'DESC' : 'ASC'}`];
    offset = position.lastKey === undefined ? options.skip : 0;
    indexColumns.push(ROW_ID_COLUMN);
  } else {
    const terms = orderTerms(set, options);
    // A table without a row id and without an order streams in stored order, as the stream links do.
    order = terms.length === 0 ? [] : [...terms, hasRowId ? rowId : `${TABLE_ALIAS}.ctid`];
    offset = options.skip + position.emitted;
  }
  const outputs = selectedProperties(set, options.select)
    .filter((property) => property.column)
    .map((property) => `${outputExpression(property)} AS ${quoteIdentifier(property.name)}`);
  const orderBy = order.length > 0 ? ` ORDER BY ${order.join(', ')}` : '';
  // `ord` numbers the rows in the page's own order (the window sorts as the query does, so the
  // planner sorts once, or reads the index once), counting from before the offset.
  const text =
    `SELECT ${hasRowId ? rowId : 'NULL'}::text AS k, row_to_json(v)::text AS j, row_number() OVER (${orderBy.trim()}) AS ord ` +
    `FROM ${dataTable(set.source.tableName)} ${TABLE_ALIAS} CROSS JOIN LATERAL (SELECT ${outputs.join(', ')}) v` +
    whereClause(conditions) +
    orderBy +
    (offset > 0 ? ` OFFSET ${offset}` : '') +
    ` LIMIT ${limit}`;
  return { text, values, keyset, indexColumns, offset };
}

/**
 * A page as one row built by Postgres: how many rows the statement found (`limit + 1` tells
 * that more follow), the first `limit` of them as one comma-separated run of JSON objects in
 * page order, and the key of the last one. One value to read instead of thousands of rows keeps
 * the API's work per page small and its memory flat. With `numberFrom`, each object gets the
 * row-number key first (tables without a row id), counting on from that number.
 */
export function pageBodyStatement(statement: PageStatement, limit: number, numberFrom?: number): Statement {
  const values = [...statement.values, limit];
  const limitParam = `$${values.length}`;
  const position = `(p.ord - ${statement.offset})`;
  let item = 'p.j';
  if (numberFrom !== undefined) {
    values.push(numberFrom);
    const number = `($${values.length}::int8 + ${position})`;
    item = `'{"${ROW_NUMBER_KEY}":' || ${number} || CASE WHEN p.j = '{}' THEN '}' ELSE ',' || substr(p.j, 2) END`;
  }
  const onPage = `FILTER (WHERE ${position} <= ${limitParam}::int8)`;
  return {
    text:
      `SELECT count(*)::int AS found, coalesce(string_agg(${item}, ',' ORDER BY p.ord) ${onPage}, '') AS body, ` +
      `(array_agg(p.k ORDER BY p.ord DESC) ${onPage})[1] AS last_key FROM (${statement.text}) p`,
    values,
  };
}
