import { runMigrations } from '../../src/database/migrate';
import { createTestDatabase, TestDatabase } from './test-database';

declare global {
  var testDatabase: TestDatabase | undefined;
}

/** One throw-away, migrated database for the whole run; workers read its URL from the env. */
export default async function globalSetup(): Promise<void> {
  const database = await createTestDatabase();
  await runMigrations(database.url);
  globalThis.testDatabase = database;
  process.env.TEST_DATABASE_URL = database.url;
}
