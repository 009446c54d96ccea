import { join } from 'node:path';
import type { AppConfig } from '../config/app-config';
import { RunningPostgres, startEmbeddedPostgres } from './embedded-postgres';

/** DATABASE_URL when configured; otherwise an embedded PostgreSQL kept under the data folder. */
export async function provideDatabase(config: AppConfig): Promise<RunningPostgres> {
  if (config.databaseUrl) {
    return { url: config.databaseUrl, stop: async () => undefined };
  }
  return startEmbeddedPostgres(join(config.dataDir, 'db'));
}
