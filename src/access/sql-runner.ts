import type { Pool, PoolClient, QueryResultRow } from 'pg';
import type { DataSource } from 'typeorm';

/** Anything that runs SQL the pg way: a pool client inside a transaction, or the ingest's own client. */
export interface SqlRunner {
  query<Row extends QueryResultRow = QueryResultRow>(
    text: string,
    values?: unknown[],
  ): Promise<{ rows: Row[]; rowCount: number | null }>;
}

/** The pg pool behind TypeORM's data source (bulk and transactional SQL goes through pg directly). */
export function pgPool(dataSource: DataSource): Pool {
  return (dataSource.driver as unknown as { master: Pool }).master;
}

/** Runs `work` in one transaction on one pooled connection; rolls back on any error. */
export async function inTransaction<T>(
  dataSource: DataSource,
  work: (client: PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pgPool(dataSource).connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
