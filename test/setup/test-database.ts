import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../../src/database/embedded-postgres';

export interface TestDatabase {
  url: string;
  /** Drops the database within DROP_BOUND_MS; never throws (what it could not drop is reaped later). */
  drop(): Promise<void>;
}

/** First key of the advisory lock a process holds while a test database of its own is in use. */
export const IN_USE_LOCK_NAMESPACE = 727_100_104;
/** Written on every test database created on a server: the reaper drops no database without it. */
export const THROW_AWAY_COMMENT = 'data-marketplace throw-away test database';
/**
 * Longest a drop may take. Since PostgreSQL 15, DROP DATABASE waits until every backend of the
 * server, in any database, has acknowledged it, and a backend inside another database's
 * COPY FROM STDIN does so only when its client sends more. A drop held up that way is given up and
 * the database left for the reaper.
 */
export const DROP_BOUND_MS = 5_000;

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** DROP … WITH (FORCE) within the bound; answers whether the database is gone. Never throws. */
export async function dropWithinBound(client: Client, name: string): Promise<boolean> {
  try {
    await client.query(`SET statement_timeout = ${DROP_BOUND_MS}`);
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    return true;
  } catch (error) {
    process.stderr.write(`Test database ${name} left for the next run to drop: ${String(error)}\n`);
    return false;
  }
}

/**
 * A database on a shared server, with a connection of its own that holds the in-use lock from
 * before the database exists until its drop has been tried: while that lock is held no reaper,
 * of this run or of a concurrent one, touches the database.
 */
async function createOnServer(adminUrl: string, name: string): Promise<TestDatabase> {
  const holder = new Client({ connectionString: adminUrl, application_name: 'test-database-holder' });
  // A lost connection only lets the database be reaped early; it must not crash the test process.
  holder.on('error', (error) => process.stderr.write(`Test database ${name} holder: ${error.message}\n`));
  await holder.connect();
  try {
    await holder.query('SELECT pg_advisory_lock($1, hashtext($2))', [IN_USE_LOCK_NAMESPACE, name]);
    await holder.query(`CREATE DATABASE "${name}"`);
    await holder.query(`COMMENT ON DATABASE "${name}" IS '${THROW_AWAY_COMMENT}'`);
  } catch (error) {
    await dropWithinBound(holder, name);
    await holder.end().catch(() => undefined);
    throw error;
  }
  return {
    url: withDatabase(adminUrl, name),
    drop: async () => {
      await dropWithinBound(holder, name);
      await holder.end().catch(() => undefined);
    },
  };
}

/**
 * A throw-away database for one test run: created on the server named by DATABASE_URL when set,
 * otherwise on an embedded PostgreSQL in a temporary folder that is removed afterwards.
 */
export async function createTestDatabase(prefix = 'dm_test'): Promise<TestDatabase> {
  const name = `${prefix}_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
  // Inside a test worker the embedded server of the global setup is reused (TEST_SERVER_URL):
  // a worker cannot load the embedded-postgres package, an ES module, under jest.
  const adminUrl = process.env.DATABASE_URL ?? process.env.TEST_SERVER_URL;
  if (adminUrl) return createOnServer(adminUrl, name);
  const folder = mkdtempSync(join(tmpdir(), 'dm-test-pg-'));
  // When run as root the server runs as a separate system user, which must reach the folder.
  chmodSync(folder, 0o755);
  const server = await startEmbeddedPostgres(folder, { persistent: false, database: name });
  return {
    url: server.url,
    drop: async () => {
      await server.stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
