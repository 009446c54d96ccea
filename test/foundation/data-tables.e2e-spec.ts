import { tableColumns, columnsOf, displayType } from '../../src/database/data-tables/data-table-catalog';
import {
  alterTable,
  createConnectorTable,
  createDatasetTable,
  dropTable,
  swapTable,
} from '../../src/database/data-tables/data-table-ddl';
import { pgPool, sqlOn } from '../../src/database/sql';
import { createTestApp, TestApp } from '../support/test-app';

/** The data-table module against a real database: every table in schema `data` is made through it. */
describe('data tables', () => {
  let testApp: TestApp;
  let suffix = 0;
  const nextName = (prefix: string) => `${prefix}_tables_${process.pid}_${++suffix}`;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  it('creates a dataset table with its hidden row id first and reads its columns back in order', async () => {
    const sql = sqlOn(testApp.dataSource);
    const name = nextName('ds');
    await createDatasetTable(sql, name, [
      { name: 'city', sqlType: 'text' },
      { name: 'count', sqlType: 'bigint' },
    ]);
    expect(await columnsOf(sql, name)).toEqual([
      { name: '_row_id', pgType: 'int8' },
      { name: 'city', pgType: 'text' },
      { name: 'count', pgType: 'int8' },
    ]);
    await dropTable(sql, name);
    expect(await columnsOf(sql, name)).toEqual([]);
  });

  it('creates a connector table with its system columns, adds and retypes columns in one statement', async () => {
    const sql = sqlOn(testApp.dataSource);
    const name = nextName('ci');
    await createConnectorTable(sql, name);
    await createConnectorTable(sql, name, { ifNotExists: true });
    await alterTable(sql, name, [{ addColumn: { name: 'value', sqlType: 'numeric' } }]);
    await alterTable(sql, name, [
      { retypeColumn: { name: 'value', sqlType: 'text' }, using: '"value"::text' },
      { addColumn: { name: 'extra', sqlType: 'jsonb' } },
    ]);
    const columns = (await tableColumns(sql, [name])).get(name);
    expect(columns?.map((column) => [column.name, displayType(column.pgType)])).toEqual([
      ['_run_id', 'text'],
      ['_fetched_at', 'timestamptz'],
      ['value', 'text'],
      ['extra', 'jsonb'],
    ]);
    await dropTable(sql, name);
  });

  it('swaps a replacement in atomically: a reader sees the old rows until the swap commits', async () => {
    const sql = sqlOn(testApp.dataSource);
    const live = nextName('ci');
    const staging = nextName('ci');
    await createConnectorTable(sql, live);
    await sql(`INSERT INTO data."${live}" VALUES (gen_random_uuid(), now())`);
    await createConnectorTable(sql, staging);
    await sql(`INSERT INTO data."${staging}" SELECT gen_random_uuid(), now() FROM generate_series(1, 3)`);
    const reader = await pgPool(testApp.dataSource).connect();
    try {
      await reader.query(`SET lock_timeout = '300ms'`);
      await testApp.dataSource.transaction(async (manager) => {
        await swapTable(sqlOn(manager), staging, live);
        // While the swap is uncommitted a reader waits: it never sees a missing or half-made table.
        await expect(reader.query(`SELECT count(*) FROM data."${live}"`)).rejects.toThrow(/lock timeout/);
      });
      const { rows } = await reader.query(`SELECT count(*)::int AS n FROM data."${live}"`);
      expect(rows[0].n).toBe(3);
    } finally {
      reader.release();
    }
    expect(await columnsOf(sql, staging)).toEqual([]);
    await dropTable(sql, live);
  });

  it('refuses to touch a table whose name it could not have generated', async () => {
    const sql = sqlOn(testApp.dataSource);
    await expect(dropTable(sql, 'users"; --')).rejects.toThrow('Unsafe data table name');
    await expect(createConnectorTable(sql, 'Upper')).rejects.toThrow('Unsafe data table name');
  });
});
