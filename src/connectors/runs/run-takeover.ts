import { DataSource } from 'typeorm';
import { dataTable, quoteIdentifier, RUN_ID_COLUMN } from '../../database/data-tables/data-table-names';
import { Sql, sqlOn } from '../../database/sql';
import { RUNNER_ALIVE_SQL } from './runner-liveness';

/** Workers that may start one run; after that many deaths the run is marked failed. */
export const MAX_RUN_ATTEMPTS = 3;

/** Whether any row of the run reached one of its tables (each row carries its run's id). */
async function anyRowCommitted(sql: Sql, tableNames: string[], runId: string): Promise<boolean> {
  for (const tableName of tableNames) {
    const { rows } = await sql<{ present: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS present`, [
      `data.${quoteIdentifier(tableName)}`,
    ]);
    if (!rows[0].present) continue;
    const found = await sql(
      `SELECT 1 FROM ${dataTable(tableName)} WHERE ${quoteIdentifier(RUN_ID_COLUMN)} = $1 LIMIT 1`,
      [runId],
    );
    if (found.rowCount > 0) return true;
  }
  return false;
}

/**
 * Queues again, for another worker, the runs of dead runners of which nothing was committed:
 * the run starts over under the same id, and as nothing of its first start reached a table,
 * nothing is partial or counted twice. The rows stay locked while this runs, so two workers
 * never both take one; staging tables are dropped before the run can be claimed again.
 * Runs with committed rows, or past MAX_RUN_ATTEMPTS, are left for the caller to mark failed.
 */
export async function requeueAbandoned(
  dataSource: DataSource,
  runnerId: string,
  dropStaging: (tableName: string, runId: string) => Promise<void>,
): Promise<string[]> {
  return dataSource.transaction(async (manager) => {
    const sql = sqlOn(manager);
    const { rows: dead } = await sql<{ id: string; table_names: string[] }>(
      `SELECT r.id, array_prepend(i.output_table_name,
                ARRAY(SELECT t.output_table_name FROM connector_instance_tables t WHERE t.instance_id = r.instance_id)
              ) AS table_names
         FROM connector_runs r JOIN connector_instances i ON i.id = r.instance_id
        WHERE r.status = 'running' AND r.runner_id IS NOT NULL AND r.runner_id <> $1
          AND r.attempts < $2 AND NOT ${RUNNER_ALIVE_SQL}
        FOR UPDATE OF r SKIP LOCKED`,
      [runnerId, MAX_RUN_ATTEMPTS],
    );
    const requeued: string[] = [];
    for (const run of dead) {
      if (await anyRowCommitted(sql, run.table_names, run.id)) continue;
      for (const tableName of run.table_names) await dropStaging(tableName, run.id);
      requeued.push(run.id);
    }
    if (requeued.length > 0)
      await sql(
        `UPDATE connector_runs SET runner_id = NULL, heartbeat_at = NULL, attempts = attempts + 1
          WHERE id = ANY($1)`,
        [requeued],
      );
    return requeued;
  });
}
