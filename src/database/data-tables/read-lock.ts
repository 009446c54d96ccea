import { dataTable } from './data-table-names';

/**
 * The application name a stream's transaction goes by (SET LOCAL, so its pooled connection is
 * itself again after): an owner's replace or delete ends such a reader after a short wait, as it
 * ends users' queries (see takeTable), and finds it by this name.
 */
export const STREAM_READER_NAME = 'dataset-stream';

/**
 * The statement that must open every transaction reading data tables in a snapshot of its own
 * (REPEATABLE READ, or several statements that must agree): their ACCESS SHARE locks, taken
 * before anything takes the snapshot.
 *
 * A refresh puts its new table in the place of the old one (`swapTable`: DROP + RENAME, in its
 * transaction). A reader that waits for that transaction then resolves the name to the new table;
 * if its snapshot was taken before the refresh committed, it sees none of the new table's rows and
 * answers an empty file with 200. With the lock taken first, the wait happens before the snapshot:
 * the reader sees the old table whole (the refresh waits for it) or the new one whole. LOCK takes
 * no snapshot, and ACCESS SHARE is allowed in read-only transactions and on a standby.
 */
export function lockForReading(tableNames: string[]): string {
  const tables = [...new Set(tableNames)].map(dataTable);
  return tables.length === 0 ? '' : `LOCK TABLE ${tables.join(', ')} IN ACCESS SHARE MODE`;
}

/** `BEGIN …` followed by the read locks, then `settings`, as one multi-statement text. */
export function beginReading(begin: string, tableNames: string[], ...settings: string[]): string {
  return [begin, lockForReading(tableNames), ...settings].filter((part) => part.length > 0).join('; ');
}
