import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../src/database/data-source-options';
import { runMigrations } from '../../src/database/migrate';
import { createTestDatabase, TestDatabase } from '../setup/test-database';

/** The app's own tables: TypeORM's bookkeeping (applied migrations, generated-column expressions) aside. */
async function appTables(dataSource: DataSource): Promise<string[]> {
  const rows: Array<{ table_name: string }> = await dataSource.query(
    `SELECT table_name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_name NOT IN ('migrations', 'typeorm_metadata') ORDER BY table_name`,
  );
  return rows.map((row) => row.table_name);
}

describe('migrations', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    // Its own database, since reverting everything must not disturb the shared test database.
    database = await createTestDatabase('dm_migrations');
    dataSource = new DataSource(buildDataSourceOptions(database.url));
  });
  afterAll(async () => {
    if (dataSource.isInitialized) await dataSource.destroy();
    await database.drop();
  });

  it('run up, all the way down, and up again cleanly', async () => {
    const applied = await runMigrations(database.url);
    expect(applied[0]).toBe('InitialSchema1795270000000');
    await dataSource.initialize();
    const tables = await appTables(dataSource);
    expect(tables).toEqual(
      expect.arrayContaining([
        'users',
        'session',
        'assets',
        'access_grants',
        'purchases',
        'connectors',
        'connector_instances',
        'connector_runs',
        'blog_posts',
      ]),
    );

    for (let index = 0; index < applied.length; index++) await dataSource.undoLastMigration();
    expect(await appTables(dataSource)).toEqual([]);
    const [dataSchema] = await dataSource.query(
      `SELECT count(*)::int AS n FROM pg_namespace WHERE nspname = 'data'`,
    );
    expect(dataSchema.n).toBe(0);

    await dataSource.destroy();
    expect(await runMigrations(database.url)).toEqual(applied);
    expect(await runMigrations(database.url)).toEqual([]);
  });

  it('leave the entity metadata in step with the schema (nothing left to generate)', async () => {
    if (!dataSource.isInitialized) await dataSource.initialize();
    const sqlInMemory = await dataSource.driver.createSchemaBuilder().log();
    const pending = sqlInMemory.upQueries.map((query) => query.query);
    expect(pending).toEqual([]);
  });
});
