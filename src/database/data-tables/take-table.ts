import { isLockTimeout, type Sql } from '../sql';
import { dataTable } from './data-table-names';
import { STREAM_READER_NAME } from './read-lock';

/** How long an owner's replace or delete waits on readers before users' SQL holding the table is ended. */
const READER_WAIT_MS = 2_000;

/**
 * Takes `tableName`'s ACCESS EXCLUSIVE lock (if the table exists) in the caller's transaction, before a swap or a drop.
 * An owner's replace, refresh or delete must not wait on a user's SQL that reads the table (one
 * query may run for minutes): after a short wait, the sessions of users' query roles holding a
 * lock on it are ended, and the lock is taken. Those sessions are a query's own connection,
 * closed when it ends anyway. So are streams and downloads (marked by STREAM_READER_NAME): a
 * client reading slowly, but never stalling, would hold the table for the stream's hour, and
 * every other reader would queue behind the owner's waiting lock. Their pooled connection is
 * dropped, and the client sees its answer cut. Other work of the app is waited for.
 */
export async function takeTable(sql: Sql, tableName: string): Promise<void> {
  const table = dataTable(tableName);
  const { rows } = await sql<{ wait: string; present: boolean }>(
    `SELECT current_setting('lock_timeout') AS wait, to_regclass($1) IS NOT NULL AS present`,
    [table],
  );
  if (!rows[0].present) return;
  await sql('SAVEPOINT take_table');
  try {
    await sql(`SELECT set_config('lock_timeout', $1, true)`, [`${READER_WAIT_MS}ms`]);
    await sql(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    await sql(`SELECT set_config('lock_timeout', $1, true)`, [rows[0].wait]);
    await sql('RELEASE SAVEPOINT take_table');
    return;
  } catch (error) {
    if (!isLockTimeout(error)) throw error;
    // Back to before the LOCK: the transaction goes on, with its own lock_timeout again.
    await sql('ROLLBACK TO SAVEPOINT take_table');
    await sql('RELEASE SAVEPOINT take_table');
  }
  await endReadersOn(sql, table);
  await sql(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
}

/**
 * Ends the sessions holding a lock on `table` that are users' query roles' (marked by their
 * comment) or streams' (by their application name).
 */
async function endReadersOn(sql: Sql, table: string): Promise<void> {
  await sql(
    `SELECT pg_terminate_backend(activity.pid)
       FROM pg_locks lock
       JOIN pg_stat_activity activity ON activity.pid = lock.pid
       JOIN pg_roles role ON role.oid = activity.usesysid
      WHERE lock.locktype = 'relation' AND lock.relation = to_regclass($1) AND lock.granted
        AND lock.database = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND activity.pid <> pg_backend_pid()
        AND (shobj_description(role.oid, 'pg_authid') = 'query role in ' || current_database()
             OR activity.application_name = $2)`,
    [table, STREAM_READER_NAME],
  );
}
