import { runMigrations } from '../../src/database/migrate';
import { reapBeforeRun } from './leftover-test-databases';
import { createTestDatabase, TestDatabase } from './test-database';

declare global {
  var testDatabase: TestDatabase | undefined;
}

/** One throw-away, migrated database for the whole run; workers read its URL from the env. */
export default async function globalSetup(): Promise<void> {
  await reapBeforeRun(process.env.DATABASE_URL);
  const database = await createTestDatabase();
  await runMigrations(database.url);
  globalThis.testDatabase = database;
  process.env.TEST_DATABASE_URL = database.url;
  // Suites that need a database of their own create it on the same server.
  if (!process.env.DATABASE_URL) {
    const server = new URL(database.url);
    server.pathname = '/postgres';
    process.env.TEST_SERVER_URL = server.toString();
  }
}
