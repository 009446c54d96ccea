import type { Sql } from '../sql';
import { takeTable } from './take-table';
import {
  columnIndexName,
  DATA_SCHEMA,
  dataTable,
  FETCHED_AT_COLUMN,
  quoteIdentifier,
  ROW_ID_COLUMN,
  RUN_ID_COLUMN,
} from './data-table-names';

/** A column to create: its safe name and its SQL type. */
export interface ColumnDefinition {
  name: string;
  sqlType: string;
}

/** The columns every connector table starts with. */
const CONNECTOR_SYSTEM_COLUMNS = `${quoteIdentifier(RUN_ID_COLUMN)} uuid NOT NULL, ${quoteIdentifier(FETCHED_AT_COLUMN)} timestamptz NOT NULL`;

function definitions(columns: ColumnDefinition[]): string[] {
  return columns.map((column) => `${quoteIdentifier(column.name)} ${column.sqlType}`);
}

/**
 * A dataset table: the hidden row id, which keeps file order, then the file's columns. Unlogged
 * while a large file loads (made logged in the same transaction before it commits).
 */
export async function createDatasetTable(
  sql: Sql,
  tableName: string,
  columns: ColumnDefinition[],
  logging: 'logged' | 'unlogged' = 'logged',
): Promise<void> {
  // A cache of 1000 keeps the sequence out of the way of a million-row COPY. Cached values are a
  // connection's own, so ids follow load order only because every load (first upload, replace,
  // append) runs on a connection of its own that closes with it: a later load never draws on an
  // earlier one's leftover values.
  const rowId = `${ROW_ID_COLUMN} bigint GENERATED ALWAYS AS IDENTITY (CACHE 1000)`;
  await sql(
    `CREATE ${logging === 'unlogged' ? 'UNLOGGED ' : ''}TABLE ${dataTable(tableName)} ` +
      `(${[rowId, ...definitions(columns)].join(', ')})`,
  );
}

/** A SQL string literal (standard_conforming_strings is on from Postgres 9.1). */
function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * A connector run's staging table: the system columns default to the run's id and fetch time,
 * so COPY sends only the records' fields and Postgres fills in two constants instead of parsing
 * them on every row. `dropRunDefaults` takes the defaults off before the table is swapped in.
 */
export async function createStagingTable(
  sql: Sql,
  tableName: string,
  run: { runId: string; fetchedAt: string },
): Promise<void> {
  await sql(
    `CREATE TABLE ${dataTable(tableName)} (` +
      `${quoteIdentifier(RUN_ID_COLUMN)} uuid NOT NULL DEFAULT ${literal(run.runId)}::uuid, ` +
      `${quoteIdentifier(FETCHED_AT_COLUMN)} timestamptz NOT NULL DEFAULT ${literal(run.fetchedAt)}::timestamptz)`,
  );
}

/** The staging table's run defaults taken off: rows only ever carry the values of their own run. */
export async function dropRunDefaults(sql: Sql, tableName: string): Promise<void> {
  await sql(
    `ALTER TABLE ${dataTable(tableName)} ALTER COLUMN ${quoteIdentifier(RUN_ID_COLUMN)} DROP DEFAULT, ` +
      `ALTER COLUMN ${quoteIdentifier(FETCHED_AT_COLUMN)} DROP DEFAULT`,
  );
}

/** `count` rows of nothing but the table's defaults (records none of whose fields has a value yet). */
export async function insertDefaultRows(sql: Sql, tableName: string, count: number): Promise<void> {
  await sql(`INSERT INTO ${dataTable(tableName)} SELECT FROM generate_series(1, $1)`, [count]);
}

/** A connector table (or its staging twin) holding only the system columns; records add the rest. */
export async function createConnectorTable(
  sql: Sql,
  tableName: string,
  options: { ifNotExists?: boolean } = {},
): Promise<void> {
  const ifNotExists = options.ifNotExists ? 'IF NOT EXISTS ' : '';
  await sql(`CREATE TABLE ${ifNotExists}${dataTable(tableName)} (${CONNECTOR_SYSTEM_COLUMNS})`);
}

export async function dropTable(sql: Sql, tableName: string): Promise<void> {
  await sql(`DROP TABLE IF EXISTS ${dataTable(tableName)}`);
}

/**
 * Puts `replacement` in the place of `tableName` (dropping the old one). Inside the caller's
 * transaction, readers see the old rows until it commits (readers that take their locks before
 * their snapshot, see read-lock.ts). The old table's grants (query reader roles) go onto the
 * replacement first, so a user's SQL never meets the new table without its SELECT.
 */
export async function swapTable(sql: Sql, replacement: string, tableName: string): Promise<void> {
  await copyGrants(sql, tableName, replacement);
  await takeTable(sql, tableName);
  await sql(`DROP TABLE IF EXISTS ${dataTable(tableName)}`);
  await sql(`ALTER TABLE ${dataTable(replacement)} RENAME TO ${quoteIdentifier(tableName)}`);
}

/** Every privilege granted on `from` (to roles other than its owner) granted on `to` as well. */
async function copyGrants(sql: Sql, from: string, to: string): Promise<void> {
  const { rows } = await sql<{ grantee: string; privilege: string }>(
    `SELECT pg_get_userbyid(acl.grantee) AS grantee, acl.privilege_type AS privilege
       FROM pg_class c CROSS JOIN LATERAL aclexplode(c.relacl) acl
      WHERE c.oid = to_regclass($1) AND acl.grantee <> c.relowner AND acl.grantee <> 0`,
    [dataTable(from)],
  );
  for (const { grantee, privilege } of rows) {
    await sql(`GRANT ${privilege} ON ${dataTable(to)} TO ${quoteIdentifier(grantee)}`);
  }
}

/**
 * Copies every row of `source` into `target` in file order, each column cast to the target's
 * type, then drops `source`. Inside the caller's transaction: readers see none of the new rows
 * until it commits.
 */
export async function appendRows(
  sql: Sql,
  source: string,
  target: string,
  columns: ColumnDefinition[],
): Promise<number> {
  const names = columns.map((column) => quoteIdentifier(column.name));
  const casts = columns.map((column) => `${quoteIdentifier(column.name)}::${column.sqlType}`);
  const { rowCount } = await sql(
    `INSERT INTO ${dataTable(target)} (${names.join(', ')})
     SELECT ${casts.join(', ')} FROM ${dataTable(source)} ORDER BY ${quoteIdentifier(ROW_ID_COLUMN)}`,
  );
  await dropTable(sql, source);
  return rowCount;
}

/** Holds writers (and schema changes) of other transactions off the table until this one ends. */
export async function lockForAppend(sql: Sql, tableName: string): Promise<void> {
  await sql(`LOCK TABLE ${dataTable(tableName)} IN SHARE ROW EXCLUSIVE MODE`);
}

/** One change of an ALTER TABLE; several are applied together, in one table rewrite. */
export type TableChange =
  | { addColumn: ColumnDefinition; ifNotExists?: true }
  | { retypeColumn: ColumnDefinition; using: string }
  | { dropColumn: string }
  | { setLogged: true };

function changeClause(change: TableChange): string {
  if ('addColumn' in change) {
    const ifNotExists = change.ifNotExists ? 'IF NOT EXISTS ' : '';
    return `ADD COLUMN ${ifNotExists}${quoteIdentifier(change.addColumn.name)} ${change.addColumn.sqlType}`;
  }
  if ('dropColumn' in change) return `DROP COLUMN ${quoteIdentifier(change.dropColumn)}`;
  if ('retypeColumn' in change) {
    const { name, sqlType } = change.retypeColumn;
    return `ALTER COLUMN ${quoteIdentifier(name)} TYPE ${sqlType} USING ${change.using}`;
  }
  return 'SET LOGGED';
}

export async function alterTable(sql: Sql, tableName: string, changes: TableChange[]): Promise<void> {
  if (changes.length === 0) return;
  await sql(`ALTER TABLE ${dataTable(tableName)} ${changes.map(changeClause).join(', ')}`);
}

/** The statement a pg-copy-streams writer sends to load CSV rows into the named columns. */
export function copyFromStdin(tableName: string, columnNames: string[], options: string): string {
  const columnList = columnNames.map(quoteIdentifier).join(', ');
  return `COPY ${dataTable(tableName)} (${columnList}) FROM STDIN WITH (${options})`;
}

/** Whether the index `createColumnIndex` builds on this column exists. */
export async function hasColumnIndex(sql: Sql, tableName: string, columnName: string): Promise<boolean> {
  const indexName = columnIndexName(tableName, columnName);
  const { rows } = await sql<{ present: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS present`, [
    `${quoteIdentifier(DATA_SCHEMA)}.${quoteIdentifier(indexName)}`,
  ]);
  return rows[0]?.present === true;
}

/**
 * A b-tree index on one column, for reads that filter or page on it. Runs inside the caller's
 * transaction: concurrent callers take turns on an advisory lock, so it is built once; writers
 * to the table wait while it builds.
 */
export async function createColumnIndex(sql: Sql, tableName: string, columnName: string): Promise<void> {
  const indexName = columnIndexName(tableName, columnName);
  await sql(`SELECT pg_advisory_xact_lock(hashtext($1))`, [indexName]);
  await sql(
    `CREATE INDEX IF NOT EXISTS ${quoteIdentifier(indexName)} ON ${dataTable(tableName)} (${quoteIdentifier(columnName)})`,
  );
}
