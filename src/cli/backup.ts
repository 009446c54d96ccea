import 'reflect-metadata';
import { join, resolve } from 'node:path';
import { backUp, backUpEmbedded } from '../backup/backup';
import { Logger } from '@nestjs/common';
import { AppLogger } from '../common/logging/app-logger';
import { loadConfig } from '../config/app-config';
import { provideDatabase } from '../database/database-server';

/**
 * `npm run backup [-- <file>]`: the database and its secrets (SESSION_SECRET and ENCRYPTION_KEY,
 * from the environment or .data/secrets.json) in one file, mode 0600. A server named by
 * DATABASE_URL is dumped by pg_dump; the embedded one under DATA_DIR is copied by PostgreSQL's own
 * base-backup API (no client tools needed). Both run beside a running app.
 */
async function main(): Promise<number> {
  const config = loadConfig();
  Logger.overrideLogger(new AppLogger(config.logLevel));
  const file = resolve(
    process.argv[2] ?? `marketplace-backup-${new Date().toISOString().replace(/[:.]/g, '-')}.dump`,
  );
  const secrets = {
    SESSION_SECRET: config.sessionSecret,
    ENCRYPTION_KEY: config.encryptionKey.toString('hex'),
  };
  const database = await provideDatabase(config);
  try {
    if (config.databaseUrl) await backUp(database.url, file, secrets);
    else await backUpEmbedded(database.url, join(config.dataDir, 'db'), file, secrets);
  } finally {
    await database.stop();
  }
  console.log(
    `Backup written to ${file} (mode 0600: it holds ENCRYPTION_KEY and SESSION_SECRET; keep it private)`,
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
