import { randomBytes } from 'node:crypto';
import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../src/database/data-source-options';
import { runMigrations } from '../../src/database/migrate';
import { pgPool } from '../../src/database/sql';
import { createTestDatabase } from '../setup/test-database';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser, createUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

type Agent = TestAgent<Test>;

const MIGRATION = 'ReadableTableNames1796000000000';

/** Letters only, so a title made of it gives a name no other suite's titles can take first. */
function uniqueWord(): string {
  return Array.from(randomBytes(8), (byte) => String.fromCharCode(97 + (byte % 26))).join('');
}

/** Catalogue rows straight into the database, as seeders and bulk loads write them. */
async function insertAsset(sql: DataSource, ownerId: string, title: string): Promise<string> {
  const [row] = await sql.query(
    `INSERT INTO assets (owner_id, title, is_public, table_name)
     VALUES ($1, $2, false, 'names_' || replace(gen_random_uuid()::text, '-', '')) RETURNING readable_name`,
    [ownerId, title],
  );
  return row.readable_name as string;
}

async function insertInstance(sql: DataSource, ownerId: string, title: string) {
  const [connector] = await sql.query(
    `INSERT INTO connectors (title, fetch_url_template) VALUES ('Names', 'https://example.test/{{x}}') RETURNING id`,
  );
  const [row] = await sql.query(
    `INSERT INTO connector_instances (connector_id, owner_id, title, output_table_name)
     VALUES ($1, $2, $3, 'names_' || replace(gen_random_uuid()::text, '-', '')) RETURNING id, readable_name`,
    [connector.id, ownerId, title],
  );
  return row as { id: string; readable_name: string };
}

async function insertFurtherTable(sql: DataSource, instanceId: string, operationId: string): Promise<string> {
  const [row] = await sql.query(
    `INSERT INTO connector_instance_tables (instance_id, operation_id, output_table_name)
     VALUES ($1, $2, 'names_' || replace(gen_random_uuid()::text, '-', '')) RETURNING readable_name`,
    [instanceId, operationId],
  );
  return row.readable_name as string;
}

describe('readable table names', () => {
  let testApp: TestApp;
  let owner: Agent;
  let ownerId: string;

  beforeAll(async () => {
    testApp = await createTestApp();
    const created = await createLoggedInUser(testApp);
    owner = created.agent;
    ownerId = created.user.id;
  });
  afterAll(() => testApp.close());

  const detail = async (id: string) => (await owner.get(`/api/assets/${id}`).expect(200)).body;

  it('names an uploaded dataset after its title and shows the name in its detail', async () => {
    const word = uniqueWord();
    const id = await uploadDataset(owner, { title: `Sales ${word} 2024` });
    expect((await detail(id)).readable_name).toBe(`sales_${word}_2024`);
  });

  it('keeps the name when the owner renames the dataset', async () => {
    const word = uniqueWord();
    const id = await uploadDataset(owner, { title: `Orders ${word}` });
    const renamed = await owner
      .patch(`/api/assets/${id}`)
      .set('Origin', TEST_ORIGIN)
      .send({ title: 'Something else entirely' })
      .expect(200);
    expect(renamed.body.title).toBe('Something else entirely');
    expect(renamed.body.readable_name).toBe(`orders_${word}`);
  });

  it('gives a clashing title the next free suffix, across datasets and connector tables', async () => {
    const word = uniqueWord();
    const first = await uploadDataset(owner, { title: `Stock ${word}` });
    const second = await uploadDataset(owner, { title: `stock-${word}` });
    expect((await detail(first)).readable_name).toBe(`stock_${word}`);
    expect((await detail(second)).readable_name).toBe(`stock_${word}_2`);
    const instance = await insertInstance(testApp.dataSource, ownerId, `Stock ${word}`);
    expect(instance.readable_name).toBe(`stock_${word}_3`);
    expect(await insertFurtherTable(testApp.dataSource, instance.id, 'items')).toBe(`stock_${word}_items`);
    expect(await insertFurtherTable(testApp.dataSource, instance.id, 'ITEMS')).toBe(`stock_${word}_items_2`);
  });

  it('makes every title an unquoted SQL identifier: letter first, accents dropped, at most 48 characters', async () => {
    const word = uniqueWord();
    const insert = (title: string) => insertAsset(testApp.dataSource, ownerId, title);
    expect(await insert(`2024 Umsätze ${word}`)).toBe(`t_2024_umsatze_${word}`);
    expect(await insert(`  Café — Öl (${word.toUpperCase()})! `)).toBe(`cafe_ol_${word}`);
    expect(await insert('数据')).toMatch(/^untitled(_[0-9]+)?$/);
    const long = `${word} ${'very long title '.repeat(6)}`;
    const longName = await insert(long);
    expect(longName).toBe(`${word}_very_long_title_very_long_title_very_lo`);
    expect(longName.length).toBeLessThanOrEqual(48);
    const longSecond = await insert(long);
    expect(longSecond).toBe(`${word}_very_long_title_very_long_title_very_2`);
  });

  it('never gives a word the SQL parser reserves, so every name reads unquoted in a query', async () => {
    const names = [];
    for (const title of ['Select', 'user', 'Values', 'order', 'left']) {
      const name = await insertAsset(testApp.dataSource, ownerId, title);
      expect(name).toMatch(new RegExp(`^${title.toLowerCase()}_[0-9]+$`));
      names.push(name);
    }
    for (const name of names) {
      // The parser accepts the name; only the table is missing (42P01, not a syntax error 42601).
      await expect(testApp.dataSource.query(`SELECT * FROM ${name}`)).rejects.toMatchObject({
        code: '42P01',
      });
    }
    await expect(testApp.dataSource.query(`SELECT * FROM select`)).rejects.toMatchObject({ code: '42601' });
  });

  it('lets the database decide between two inserts of the same title at the same moment', async () => {
    const word = uniqueWord();
    const pool = pgPool(testApp.dataSource);
    const [first, second] = [await pool.connect(), await pool.connect()];
    const insert = (client: typeof first) =>
      client.query(
        `INSERT INTO assets (owner_id, title, is_public, table_name)
         VALUES ($1, $2, false, 'names_' || replace(gen_random_uuid()::text, '-', '')) RETURNING readable_name`,
        [ownerId, `Race ${word}`],
      );
    try {
      await first.query('BEGIN');
      await second.query('BEGIN');
      const firstName = (await insert(first)).rows[0].readable_name;
      const waiting = insert(second);
      // The second waits for the first: its commit takes the plain name, so the second gets _2.
      await first.query('COMMIT');
      expect(firstName).toBe(`race_${word}`);
      expect((await waiting).rows[0].readable_name).toBe(`race_${word}_2`);
      await second.query('COMMIT');

      // A rolled-back insert (a failed upload) gives its name back.
      await first.query('BEGIN');
      await second.query('BEGIN');
      expect((await insert(first)).rows[0].readable_name).toBe(`race_${word}_3`);
      const next = insert(second);
      await first.query('ROLLBACK');
      expect((await next).rows[0].readable_name).toBe(`race_${word}_3`);
      await second.query('COMMIT');
    } finally {
      first.release();
      second.release();
    }
  });

  it('gives names only itself and never changes one, so no two tables share a name', async () => {
    const word = uniqueWord();
    const taken = await insertAsset(testApp.dataSource, ownerId, `Taken ${word}`);
    const instance = await insertInstance(testApp.dataSource, ownerId, `Other ${word}`);
    const [copy] = await testApp.dataSource.query(
      `INSERT INTO connector_instances (connector_id, owner_id, title, output_table_name, readable_name)
       SELECT connector_id, owner_id, 'Copy', 'names_copy_${word}', $1 FROM connector_instances WHERE id = $2
       RETURNING readable_name`,
      [taken, instance.id],
    );
    expect(copy.readable_name).toMatch(/^copy(_[0-9]+)?$/);
    await expect(
      testApp.dataSource.query(`UPDATE connector_instances SET readable_name = $1 WHERE id = $2`, [
        taken,
        instance.id,
      ]),
    ).rejects.toMatchObject({ code: '23514' });
  });
});

describe('readable table names for tables that existed before them', () => {
  it('gives every existing table a name, oldest first, when the migration runs', async () => {
    const database = await createTestDatabase('dm_readable_names');
    const dataSource = new DataSource(buildDataSourceOptions(database.url));
    try {
      await runMigrations(database.url);
      await dataSource.initialize();
      const applied = async () =>
        (await dataSource.query(`SELECT 1 FROM migrations WHERE name = $1`, [MIGRATION])).length > 0;
      while (await applied()) await dataSource.undoLastMigration();

      const user = await createUser(dataSource);
      const [newer, older] = await dataSource.query(
        `INSERT INTO assets (owner_id, title, table_name, created_at)
         VALUES ($1, 'Sales', 'ds_newer', now()), ($1, 'Sales', 'ds_older', now() - interval '1 day')
         RETURNING id`,
        [user.id],
      );
      const [connector] = await dataSource.query(
        `INSERT INTO connectors (title, fetch_url_template) VALUES ('C', 'https://example.test/{{x}}') RETURNING id`,
      );
      const [instance] = await dataSource.query(
        `INSERT INTO connector_instances (connector_id, owner_id, title, output_table_name)
         VALUES ($1, $2, 'Sales', 'ci_sales') RETURNING id`,
        [connector.id, user.id],
      );
      await dataSource.query(
        `INSERT INTO connector_instance_tables (instance_id, operation_id, output_table_name)
         VALUES ($1, 'items', 'ci_sales_items')`,
        [instance.id],
      );
      await dataSource.destroy();

      await runMigrations(database.url);
      await dataSource.initialize();
      const names = await dataSource.query(
        `SELECT id, readable_name FROM assets
         UNION ALL SELECT id, readable_name FROM connector_instances
         UNION ALL SELECT instance_id, readable_name FROM connector_instance_tables`,
      );
      expect(names).toEqual(
        expect.arrayContaining([
          { id: older.id, readable_name: 'sales' },
          { id: newer.id, readable_name: 'sales_2' },
          { id: instance.id, readable_name: 'sales_3' },
          { id: instance.id, readable_name: 'sales_items' },
        ]),
      );
      expect(names).toHaveLength(4);
    } finally {
      if (dataSource.isInitialized) await dataSource.destroy();
      await database.drop();
    }
  });
});
