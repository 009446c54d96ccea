import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from '../config/app-config';
import { provideDatabase } from '../database/database-server';
import { parseFlagArguments, setUserFlag } from '../users/user-flags';

/**
 * `npm run user:pro -- <email> [on|off]` and `npm run user:editor -- <email> [on|off]`: the only
 * way to grant the pro and blog-editor flags (there is no admin screen).
 */
async function main(): Promise<number> {
  let args;
  try {
    args = parseFlagArguments(process.argv.slice(2));
  } catch (error) {
    console.error((error as Error).message);
    return 64;
  }
  const database = await provideDatabase(loadConfig());
  const dataSource = new DataSource({ type: 'postgres', url: database.url, extra: { max: 1 } });
  try {
    await dataSource.initialize();
    const label = args.flag === 'pro' ? 'pro_user' : 'blog_editor';
    if (!(await setUserFlag(dataSource, args))) {
      console.error(`No user with the e-mail ${args.email}`);
      return 1;
    }
    console.log(`${label} ${args.enabled ? 'on' : 'off'} for ${args.email}`);
    return 0;
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await database.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
