import { DataSource } from 'typeorm';
import { createTestDatabase, TestDatabase } from '../../setup/test-database';

export interface ReliabilityDatabase {
  url: string;
  /** The test's own connection, for setting up rows and checking the outcome in SQL. */
  dataSource: DataSource;
  /** Closes the test's connection and drops the database. Safe to call after a failure. */
  drop(): Promise<void>;
}

/** A database of its own for one suite (the apps migrate it when they start). */
export async function createReliabilityDatabase(prefix: string): Promise<ReliabilityDatabase> {
  const database: TestDatabase = await createTestDatabase(prefix);
  const dataSource = new DataSource({ type: 'postgres', url: database.url, extra: { max: 4 } });
  await dataSource.initialize();
  return {
    url: database.url,
    dataSource,
    drop: async () => {
      if (dataSource.isInitialized) await dataSource.destroy().catch(() => undefined);
      await database.drop();
    },
  };
}

/** Polls `check` until it answers a value (not undefined) or the time is up. */
export async function waitFor<T>(
  description: string,
  check: () => Promise<T | undefined>,
  timeoutMs: number,
  intervalMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${description}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Tables in schema `data` that belong to nothing: neither a dataset (assets.table_name) nor a
 * connector instance (connector_instances.output_table_name). Debris of an interrupted write.
 */
export async function strayDataTables(dataSource: DataSource): Promise<string[]> {
  const rows: Array<{ table_name: string }> = await dataSource.query(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = 'data'
        AND table_name NOT IN (SELECT table_name FROM assets WHERE table_name IS NOT NULL)
        AND table_name NOT IN (SELECT output_table_name FROM connector_instances)
      ORDER BY table_name`,
  );
  return rows.map((row) => row.table_name);
}
