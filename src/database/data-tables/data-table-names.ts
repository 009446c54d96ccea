import { createHash, randomBytes } from 'node:crypto';
import { escapeIdentifier } from 'pg';

/**
 * The `data` schema holds one real table per dataset and per connector instance. This folder is
 * the only code that names, creates, changes or describes those tables; everyone else asks it.
 */
export const DATA_SCHEMA = 'data';

/** Hidden per-row id of dataset tables: file order, stable paging. Never part of a dataset's columns. */
export const ROW_ID_COLUMN = '_row_id';
/** Connector tables: the run that wrote the row, and when its page was fetched. */
export const RUN_ID_COLUMN = '_run_id';
export const FETCHED_AT_COLUMN = '_fetched_at';
/**
 * Ends the name of the column that keeps, beside a connector table's timestamptz column, each
 * value's text as fetched: timestamptz keeps the instant but not the offset or digits written.
 * No column name made from a record key holds `#`; readers never see these columns.
 */
export const WRITTEN_TEXT_SUFFIX = '#written';

/** The column holding the text as fetched of timestamptz column `name`. */
export function writtenTextColumn(name: string): string {
  return `${name}${WRITTEN_TEXT_SUFFIX}`;
}

/** Every name we generate fits this; Postgres keeps 63 bytes of an identifier. */
const TABLE_NAME_PATTERN = /^[a-z][a-z0-9_]{0,62}$/;
const CONNECTOR_SLUG_LENGTH = 24;

/** Whether `name` can be a table of ours (anything else names nothing and never reaches SQL). */
export function isDataTableName(name: unknown): name is string {
  return typeof name === 'string' && TABLE_NAME_PATTERN.test(name);
}

/** A quoted SQL identifier (a column or table name); quoting is the fence, whatever the name holds. */
export function quoteIdentifier(name: string): string {
  return escapeIdentifier(name);
}

/** `"data"."<table>"`, ready to put into SQL; refuses a name we could not have generated. */
export function dataTable(tableName: string): string {
  if (!isDataTableName(tableName)) throw new Error(`Unsafe data table name: ${JSON.stringify(tableName)}`);
  return `${quoteIdentifier(DATA_SCHEMA)}.${quoteIdentifier(tableName)}`;
}

/** The table of an uploaded dataset, derived from its id. */
export function datasetTableName(assetId: string): string {
  return `ds_${assetId.replace(/-/g, '').toLowerCase()}`;
}

/**
 * Text as an identifier part: accents dropped, lower-case letters and digits, every other run of
 * characters one underscore, none at either end, at most `maxLength` characters. May be empty.
 */
export function slugIdentifier(text: string, maxLength: number): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, maxLength)
    .replace(/_+$/, '');
}

/** A unique table for a connector instance: a readable slug of its title and a random suffix. */
export function connectorTableName(title: string): string {
  const slug = slugIdentifier(title, CONNECTOR_SLUG_LENGTH);
  return `ci_${slug || 'connector'}_${randomBytes(5).toString('hex')}`;
}

/** Where one run of a connector writes before its rows are swapped or appended into `tableName`. */
export function stagingTableName(tableName: string, runId: string): string {
  return `${tableName}__s${runId.replace(/-/g, '').slice(0, 10)}`;
}

/** The index on one column of a data table: derived from both names, so it is found again. */
export function columnIndexName(tableName: string, columnName: string): string {
  const digest = createHash('sha256').update(`${tableName}\u0000${columnName}`).digest('hex');
  return `ix_${digest.slice(0, 40)}`;
}
