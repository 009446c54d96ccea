import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../../src/database/embedded-postgres';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
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
  if (adminUrl) {
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    return {
      url: withDatabase(adminUrl, name),
      drop: async () => {
        const client = new Client({ connectionString: adminUrl });
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await client.end();
      },
    };
  }
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
