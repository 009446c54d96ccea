import type { Pool, QueryResult } from 'pg';

/**
 * The server process of a connection is asked of the server, inside the transaction whose work may
 * need cancelling: behind PgBouncer the driver's `processID` is the pooler's own id, which
 * `pg_cancel_backend` cannot reach, and only within one transaction does a transaction-mode pooler
 * keep a client on one server connection.
 */
export const SERVER_BACKEND_SQL = 'SELECT pg_backend_pid() AS server_backend';

/** The pid answered by SERVER_BACKEND_SQL, last of the results of a multi-statement query. */
export function serverBackendOf(results: QueryResult | QueryResult[]): number | undefined {
  const last = Array.isArray(results) ? results[results.length - 1] : results;
  const pid = (last?.rows[0] as { server_backend?: unknown } | undefined)?.server_backend;
  return typeof pid === 'number' ? pid : undefined;
}

/** Cancels the statement the server process `backend` runs (from another connection); never throws. */
export async function cancelServerBackend(pool: Pool, backend: number | undefined): Promise<void> {
  if (backend === undefined) return;
  await pool.query('SELECT pg_cancel_backend($1)', [backend]).catch(() => undefined);
}
