import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { loadConfig } from '../config/app-config';
import { provideDatabase } from '../database/database-server';

/** Runs the TypeORM CLI against the configured database, starting the embedded one if needed. */
async function main(): Promise<void> {
  const config = loadConfig();
  const database = await provideDatabase(config);
  const cli = require.resolve('typeorm/cli.js');
  const dataSourceFile = join(__dirname, '..', '..', 'ormconfig.js');
  const child = spawn(process.execPath, [cli, '-d', dataSourceFile, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, DATABASE_URL: database.url },
  });
  const code = await new Promise<number>((resolve) => child.on('exit', (status) => resolve(status ?? 1)));
  await database.stop();
  process.exit(code);
}

void main();
