import { Client } from 'pg';

async function queryOne<T>(url: string, sql: string): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(sql);
    return rows[0] as T;
  } finally {
    await client.end();
  }
}

/** Whether the replica has replayed everything the primary has written up to now. */
export async function replicaCaughtUp(primaryUrl: string, replicaUrl: string): Promise<boolean> {
  const { lsn } = await queryOne<{ lsn: string }>(primaryUrl, `SELECT pg_current_wal_lsn()::text AS lsn`);
  const { behind } = await queryOne<{ behind: boolean }>(
    replicaUrl,
    `SELECT pg_last_wal_replay_lsn() < '${lsn}'::pg_lsn AS behind`,
  );
  return behind === false;
}

/**
 * Scans of `table` the replica itself has served (its own statistics; a standby counts the reads
 * made on it): rising while the app reads from it.
 */
export async function replicaScans(replicaUrl: string, table: string): Promise<number> {
  const { scans } = await queryOne<{ scans: string | null }>(
    replicaUrl,
    `SELECT coalesce(sum(coalesce(seq_scan, 0) + coalesce(idx_scan, 0)), 0)::text AS scans
       FROM pg_stat_user_tables WHERE relname = '${table}'`,
  );
  return Number(scans);
}
