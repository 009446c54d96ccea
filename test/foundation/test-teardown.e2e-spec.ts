import type { NestExpressApplication } from '@nestjs/platform-express';
import { Client } from 'pg';
import {
  leftoverTestDatabases,
  reapLeftoverTestDatabases,
  reapOrphanQueryRoles,
} from '../setup/leftover-test-databases';
import { createTestDatabase, TestDatabase, THROW_AWAY_COMMENT } from '../setup/test-database';
import { CLOSE_BOUND_MS, closeWithinBound } from '../support/test-app';

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

/**
 * What the code under test writes to stderr, kept from the run's output and answered for the test
 * to check: a message the test provokes on purpose is a result, not a warning for the reader.
 */
function captureStderr(): { lines: string[]; restore: () => void } {
  const lines: string[] = [];
  const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  return { lines, restore: () => spy.mockRestore() };
}

async function exists(name: string): Promise<boolean> {
  return onServer(async (client) => {
    const { rows } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    return rows.length === 1;
  });
}

describe('test databases: bounded drop and the reaper', () => {
  // Whatever the tests left is reaped, within its bound: a plain DROP could wait on a held-up server.
  afterAll(() => reapLeftoverTestDatabases(serverUrl()));

  it('a drop gives up when another connection holds the database up, leaving it for the reaper', async () => {
    const database = await createTestDatabase('dm_held');
    const name = nameOf(database);
    // Another session's open transaction locks the database object: DROP DATABASE would wait for it.
    const holdingUp = new Client({ connectionString: serverUrl() });
    await holdingUp.connect();
    try {
      await holdingUp.query('BEGIN');
      await holdingUp.query(`COMMENT ON DATABASE "${name}" IS 'held up'`);
      // Resolves although the transaction is never ended while it waits: the drop is bounded.
      const stderr = captureStderr();
      try {
        await database.drop();
      } finally {
        stderr.restore();
      }
      expect(stderr.lines.join('')).toContain(`Test database ${name} left for the next run to drop`);
      expect(await exists(name)).toBe(true);
    } finally {
      await holdingUp.query('ROLLBACK').catch(() => undefined);
      await holdingUp.end();
    }
    expect(await leftoverTestDatabases(serverUrl())).toContain(name);

    const reaped = await reapLeftoverTestDatabases(serverUrl());
    // What it says it dropped is gone. On a server where another database's COPY holds every drop
    // up, nothing can be; the database then stays a leftover for the next start.
    expect(await exists(name)).toBe(!reaped.includes(name));
    expect(reaped.includes(name) || (await leftoverTestDatabases(serverUrl())).includes(name)).toBe(true);
  });

  it('never counts a database still in use by a run, or one the tests did not make, as a leftover', async () => {
    const inUse = await createTestDatabase('dm_in_use');
    // Named like a test database, but without the comment every test database gets.
    const foreign = `dm_foreign_${Date.now()}_abcdef`;
    await onServer((client) => client.query(`CREATE DATABASE "${foreign}"`));

    const leftovers = await leftoverTestDatabases(serverUrl());
    expect(leftovers).not.toContain(nameOf(inUse));
    expect(leftovers).not.toContain(foreign);
    const reaped = await reapLeftoverTestDatabases(serverUrl());
    expect(reaped).not.toContain(nameOf(inUse));
    expect(reaped).not.toContain(foreign);
    expect(await exists(nameOf(inUse))).toBe(true);
    expect(await exists(foreign)).toBe(true);
    // Now that it has been passed over, the comment lets the reaper clean it up after the tests.
    await onServer((client) => client.query(`COMMENT ON DATABASE "${foreign}" IS '${THROW_AWAY_COMMENT}'`));

    // Dropped (or, on a held-up server, given up on) by its own run, it becomes a leftover.
    await inUse.drop();
    const stillThere = await exists(nameOf(inUse));
    expect(!stillThere || (await leftoverTestDatabases(serverUrl())).includes(nameOf(inUse))).toBe(true);
  });
});

describe('query roles of dropped test databases', () => {
  it('removes the roles of a database that is gone and keeps those of one that exists', async () => {
    const roleExists = (name: string) =>
      onServer(
        async (client) =>
          (await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [name])).rows.length,
      );
    const [{ oid }] = await onServer(
      async (client) =>
        (await client.query(`SELECT oid::text FROM pg_database WHERE datname = current_database()`)).rows,
    );
    const [{ unused }] = await onServer(
      async (client) =>
        (await client.query(`SELECT (max(oid)::int8 + 1000000)::text AS unused FROM pg_database`)).rows,
    );
    const gone = `dq${unused}_u_teardown`;
    const kept = `dq${oid}_u_teardown_${Date.now()}`;
    await onServer(async (client) => {
      await client.query(`CREATE ROLE "${gone}" NOLOGIN`);
      await client.query(`CREATE ROLE "${kept}" NOLOGIN`);
    });
    try {
      await reapOrphanQueryRoles(serverUrl());
      expect(await roleExists(gone)).toBe(0);
      expect(await roleExists(kept)).toBe(1);
    } finally {
      await onServer((client) => client.query(`DROP ROLE IF EXISTS "${gone}", "${kept}"`));
    }
  });
});

describe('test apps: bounded close', () => {
  afterEach(() => jest.useRealTimers());

  it('stops waiting for an app that never finishes closing once the bound has passed', async () => {
    jest.useFakeTimers();
    const neverCloses = {
      close: () => new Promise<void>(() => undefined),
    } as unknown as NestExpressApplication;
    let finished = false;
    const stderr = captureStderr();
    try {
      const closing = closeWithinBound(neverCloses).then(() => (finished = true));
      await jest.advanceTimersByTimeAsync(CLOSE_BOUND_MS - 1);
      expect(finished).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      await closing;
    } finally {
      stderr.restore();
    }
    expect(finished).toBe(true);
    expect(stderr.lines).toEqual([`A test app took over ${CLOSE_BOUND_MS} ms to close; left behind\n`]);
  });
});
