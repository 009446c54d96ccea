import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { headerOf, restore, restoreEmbedded } from '../backup/backup';
import { restoredSecrets } from '../backup/backup-secrets';
import { Logger } from '@nestjs/common';
import { AppLogger } from '../common/logging/app-logger';
import { loadConfig } from '../config/app-config';
import { DataDirInUseError, lockDataDir } from '../database/data-dir-lock';
import { provideDatabase } from '../database/database-server';

/**
 * `npm run restore -- <file>`: the backup's database in place of the current one (pg_restore into
 * the server of DATABASE_URL, or the embedded database's folder laid down again), and its
 * secrets: written to .data/secrets.json when the environment sets none, else the environment's
 * must be the backup's (connector credentials and API keys only decrypt with that key). Stop the
 * app first; with the embedded database a running app makes this refuse.
 */
async function main(): Promise<number> {
  const file = process.argv[2];
  if (!file) {
    console.error('Usage: npm run restore -- <backup file>');
    return 64;
  }
  const path = resolve(file);
  const header = headerOf(path);
  const { secrets } = header;
  const plan = restoredSecrets(process.env, secrets);
  if ('refusal' in plan) {
    console.error(plan.refusal);
    return 1;
  }
  const config = loadConfig();
  Logger.overrideLogger(new AppLogger(config.logLevel));
  if (!config.databaseUrl) {
    try {
      lockDataDir(config.dataDir, 0);
    } catch (error) {
      if (error instanceof DataDirInUseError) {
        console.error(`${error.message} Stop it before restoring.`);
        return 73;
      }
      throw error;
    }
  }
  if (header.format === 'embedded') {
    if (config.databaseUrl) {
      console.error(
        `${path} is a copy of the embedded database's folder: restore it without DATABASE_URL, into DATA_DIR`,
      );
      return 64;
    }
    await restoreEmbedded(join(config.dataDir, 'db'), path);
  } else {
    const database = await provideDatabase(config);
    try {
      await restore(database.url, path);
    } finally {
      await database.stop();
    }
  }
  if (plan.writeSecretsFile) {
    writeFileSync(join(config.dataDir, 'secrets.json'), JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  console.log(
    `Restored ${path}${plan.writeSecretsFile ? ` (secrets in ${join(config.dataDir, 'secrets.json')})` : ''}`,
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
