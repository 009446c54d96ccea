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
/** The digits of a row's own id that follow the title's base in a new name. */
const own = (id: string) => `_${id.replace(/-/g, '').slice(0, 4)}`;
/** A new name's shape: the base, then four hex digits. */
const named = (base: string) => new RegExp(`^${base}_[0-9a-f]{4}$`);

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
    expect((await detail(id)).readable_name).toBe(`sales_${word}_2024${own(id)}`);
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
    expect(renamed.body.readable_name).toBe(`orders_${word}${own(id)}`);
  });

  it('gives equal titles names of their own, across datasets and connector tables', async () => {
    const word = uniqueWord();
    const first = await uploadDataset(owner, { title: `Stock ${word}` });
    const second = await uploadDataset(owner, { title: `stock-${word}` });
    expect((await detail(first)).readable_name).toBe(`stock_${word}${own(first)}`);
    expect((await detail(second)).readable_name).toBe(`stock_${word}${own(second)}`);
    const instance = await insertInstance(testApp.dataSource, ownerId, `Stock ${word}`);
    expect(instance.readable_name).toBe(`stock_${word}${own(instance.id)}`);
    const items = await insertFurtherTable(testApp.dataSource, instance.id, 'items');
    const again = await insertFurtherTable(testApp.dataSource, instance.id, 'ITEMS');
    expect(items).toMatch(named(`stock_${word}_items`));
    expect(again).toMatch(named(`stock_${word}_items`));
    expect(again).not.toBe(items);
  });

  it('makes every title an unquoted SQL identifier: letter first, accents dropped, at most 48 characters', async () => {
    const word = uniqueWord();
    const insert = (title: string) => insertAsset(testApp.dataSource, ownerId, title);
    expect(await insert(`2024 Umsätze ${word}`)).toMatch(named(`t_2024_umsatze_${word}`));
    expect(await insert(`  Café — Öl (${word.toUpperCase()})! `)).toMatch(named(`cafe_ol_${word}`));
    expect(await insert('数据')).toMatch(named('untitled'));
    const long = `${word} ${'very long title '.repeat(6)}`;
    const longName = await insert(long);
    expect(longName).toMatch(named(`${word}_very_long_title_very_long_title_ve`));
    expect(longName.length).toBeLessThanOrEqual(48);
    const longSecond = await insert(long);
    expect(longSecond).toMatch(named(`${word}_very_long_title_very_long_title_ve`));
    expect(longSecond).not.toBe(longName);
  });

  it('never gives a word the SQL parser reserves, so every name reads unquoted in a query', async () => {
    const names = [];
    for (const title of ['Select', 'user', 'Values', 'order', 'left']) {
      const name = await insertAsset(testApp.dataSource, ownerId, title);
      expect(name).toMatch(named(title.toLowerCase()));
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

  it('gives two inserts of the same title at the same moment names of their own, neither waiting', async () => {
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
      // Neither name depends on the other, so the second insert does not wait for the first's commit.
      const firstName = (await insert(first)).rows[0].readable_name;
      const secondName = (await insert(second)).rows[0].readable_name;
      expect(firstName).toMatch(named(`race_${word}`));
      expect(secondName).toMatch(named(`race_${word}`));
      expect(secondName).not.toBe(firstName);
      await first.query('COMMIT');
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
    // A name given on insert (only the demo seed gives one) is claimed like a title: never a taken one.
    expect(copy.readable_name).toBe(`${taken}_2`);
    await expect(
      testApp.dataSource.query(`UPDATE connector_instances SET readable_name = $1 WHERE id = $2`, [
        taken,
        instance.id,
      ]),
    ).rejects.toMatchObject({ code: '23514' });
  });
});

describe('readable table names of one tenant tell nothing of another’s', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  it('names a dataset the same way whether or not someone else has a table of that title', async () => {
    const word = uniqueWord();
    const other = await createLoggedInUser(testApp);
    const prober = await createLoggedInUser(testApp);
    // The other tenant's private dataset and connection, both titled like the prober's guess.
    await uploadDataset(other.agent, { title: `Merger ${word}`, is_public: 'false' });
    await insertInstance(testApp.dataSource, other.user.id, `Merger ${word} plan`);
    const nameOf = async (title: string) => {
      const id = await uploadDataset(prober.agent, { title, is_public: 'false' });
      const name = (await prober.agent.get(`/api/assets/${id}`).expect(200)).body.readable_name as string;
      return { id, name };
    };
    // What follows the title's base is the prober's own, for a taken title as for a fresh one.
    for (const [title, base] of [
      [`Merger ${word}`, `merger_${word}`],
      [`Merger ${word} plan`, `merger_${word}_plan`],
      [`Fresh ${word}`, `fresh_${word}`],
    ]) {
      const { id, name } = await nameOf(title);
      expect(name).toBe(`${base}${own(id)}`);
    }
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
