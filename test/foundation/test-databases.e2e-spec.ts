import { Client } from 'pg';
import { createTestDatabase, reapLeftoverTestDatabases, TestDatabase } from '../setup/test-database';

function serverUrl(): string {
  const url = process.env.DATABASE_URL ?? process.env.TEST_SERVER_URL;
  if (!url) throw new Error('No database server: run the tests through jest (global setup)');
  return url;
}

function nameOf(database: TestDatabase): string {
  return new URL(database.url).pathname.slice(1);
}

async function onServer<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: serverUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function exists(name: string): Promise<boolean> {
  return onServer(async (client) => {
    const { rows } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    return rows.length === 1;
  });
}

describe('test databases: bounded drop and the reaper', () => {
  const created: string[] = [];
  afterAll(() =>
    onServer(async (client) => {
      for (const name of created) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }),
  );

  it('a drop gives up when another connection holds the database up, leaving it for the reaper', async () => {
    const database = await createTestDatabase('dm_held');
    const name = nameOf(database);
    created.push(name);
    // Another session's open transaction locks the database object: DROP DATABASE would wait for it.
    const holdingUp = new Client({ connectionString: serverUrl() });
    await holdingUp.connect();
    try {
      await holdingUp.query('BEGIN');
      await holdingUp.query(`COMMENT ON DATABASE "${name}" IS 'held up'`);
      // Resolves although the transaction is never ended while it waits: the drop is bounded.
      await database.drop();
      expect(await exists(name)).toBe(true);
    } finally {
      await holdingUp.query('ROLLBACK').catch(() => undefined);
      await holdingUp.end();
    }

    await reapLeftoverTestDatabases(serverUrl());
    expect(await exists(name)).toBe(false);
  });

  it('reaps neither a database still in use by a run nor one the tests did not make', async () => {
    const inUse = await createTestDatabase('dm_in_use');
    created.push(nameOf(inUse));
    // Named like a test database, but without the comment every test database gets.
    const foreign = `dm_foreign_${Date.now()}_abcdef`;
    created.push(foreign);
    await onServer((client) => client.query(`CREATE DATABASE "${foreign}"`));

    const reaped = await reapLeftoverTestDatabases(serverUrl());
    expect(reaped).not.toContain(nameOf(inUse));
    expect(reaped).not.toContain(foreign);
    expect(await exists(nameOf(inUse))).toBe(true);
    expect(await exists(foreign)).toBe(true);

    await inUse.drop();
    expect(await exists(nameOf(inUse))).toBe(false);
  });
});
