import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from './data-source-options';

/** Arbitrary but fixed: every process that migrates takes the same advisory lock. */
const MIGRATION_LOCK_ID = 727_100_001;

/**
 * Applies pending migrations. Several app processes may start at once; the advisory lock makes
 * them take turns so each migration runs exactly once.
 */
export async function runMigrations(url: string): Promise<string[]> {
  const dataSource = new DataSource({ ...buildDataSourceOptions(url), extra: { max: 1 } });
  await dataSource.initialize();
  try {
    await dataSource.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((migration) => migration.name);
    } finally {
      await dataSource.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    }
  } finally {
    await dataSource.destroy();
  }
}
