import type { AssetColumn } from '../assets/entities/asset.entity';
import { sqlTypeFor } from '../assets/ingest/value-kinds';
import { columnsOf, displayType } from '../database/data-tables/data-table-catalog';
import { createDatasetTable, dropTable } from '../database/data-tables/data-table-ddl';
import {
  dataTable,
  FETCHED_AT_COLUMN,
  quoteIdentifier,
  RUN_ID_COLUMN,
} from '../database/data-tables/data-table-names';
import type { Sql } from '../database/sql';
import type { PublishedColumn } from './schema-change';

/** Columns of a connector table that say how a row was fetched, not what the upstream holds. */
const RUN_BOOKKEEPING = new Set([RUN_ID_COLUMN, FETCHED_AT_COLUMN]);

const ASSET_TYPES: ReadonlySet<string> = new Set<AssetColumn['type']>([
  'integer',
  'numeric',
  'boolean',
  'date',
  'timestamp',
  'timestamptz',
  'text',
  'jsonb',
]);

function assetType(pgType: string): AssetColumn['type'] {
  const shown = displayType(pgType);
  return ASSET_TYPES.has(shown) ? (shown as AssetColumn['type']) : 'text';
}

/** The columns a connector table publishes, in table order: every column of the upstream's records. */
export async function sourceColumns(sql: Sql, sourceTable: string): Promise<PublishedColumn[]> {
  const columns = await columnsOf(sql, sourceTable);
  return columns
    .filter((column) => !RUN_BOOKKEEPING.has(column.name))
    .map((column) => ({ name: column.name, type: assetType(column.pgType) }));
}

/** The dataset's view of published columns: the label is the name the records gave. */
export function datasetColumns(columns: PublishedColumn[]): AssetColumn[] {
  return columns.map((column) => ({ name: column.name, label: column.name, type: column.type }));
}

/**
 * Copies every row of the connector table into a new dataset table `target` (row id, then
 * `columns` in their SQL types), in one statement, which reads one snapshot of the source: a run
 * committing meanwhile is either wholly in the copy or not at all. Answers the rows copied.
 */
export async function copySourceTable(
  sql: Sql,
  sourceTable: string,
  target: string,
  columns: AssetColumn[],
): Promise<number> {
  await dropTable(sql, target);
  await createDatasetTable(
    sql,
    target,
    columns.map((column) => ({ name: column.name, sqlType: sqlTypeFor(column.type) })),
  );
  if (columns.length === 0) return 0;
  const names = columns.map((column) => quoteIdentifier(column.name));
  const { rowCount } = await sql(
    `INSERT INTO ${dataTable(target)} (${names.join(', ')}) SELECT ${names.join(', ')} FROM ${dataTable(sourceTable)}`,
  );
  return rowCount;
}

/** Whether the run `runId` left any row in the source table (an append or override that wrote). */
export async function runLeftRows(sql: Sql, sourceTable: string, runId: string): Promise<boolean> {
  const { rows } = await sql(
    `SELECT 1 FROM ${dataTable(sourceTable)} WHERE ${quoteIdentifier(RUN_ID_COLUMN)} = $1 LIMIT 1`,
    [runId],
  );
  return rows.length > 0;
}

/** Rows in the source table now. */
export async function sourceRowCount(sql: Sql, sourceTable: string): Promise<number> {
  const { rows } = await sql<{ count: string }>(`SELECT count(*) AS count FROM ${dataTable(sourceTable)}`);
  return Number(rows[0].count);
}
