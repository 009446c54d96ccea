import 'reflect-metadata';
import { resolve } from 'node:path';
import { backUp } from '../backup/backup';
import { Logger } from '@nestjs/common';
import { AppLogger } from '../common/logging/app-logger';
import { loadConfig } from '../config/app-config';
import { provideDatabase } from '../database/database-server';

/**
 * `npm run backup [-- <file>]`: the database (the embedded one under DATA_DIR, or DATABASE_URL)
 * and its secrets (SESSION_SECRET and ENCRYPTION_KEY, from the environment or .data/secrets.json)
 * in one file, mode 0600. Runs beside a running app: pg_dump reads one consistent snapshot.
 */
async function main(): Promise<number> {
  const config = loadConfig();
  Logger.overrideLogger(new AppLogger(config.logLevel));
  const file = resolve(
    process.argv[2] ?? `marketplace-backup-${new Date().toISOString().replace(/[:.]/g, '-')}.dump`,
  );
  const database = await provideDatabase(config);
  try {
    await backUp(database.url, file, {
      SESSION_SECRET: config.sessionSecret,
      ENCRYPTION_KEY: config.encryptionKey.toString('hex'),
    });
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
