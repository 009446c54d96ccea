import 'reflect-metadata';
import { bootLogger, createApp } from './bootstrap';
import { ConfigError } from './config/environment';
import { loadConfig } from './config/app-config';
import { provideDatabase } from './database/database-server';
import { runMigrations } from './database/migrate';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78);
    }
    throw error;
  }

  const database = await provideDatabase(config);
  const applied = await runMigrations(database.url);
  if (applied.length > 0) bootLogger.log(`Applied migrations: ${applied.join(', ')}`);

  const app = await createApp(config, database.url);
  const server = await app.listen(config.port);
  bootLogger.log(`Data marketplace listening on ${config.appOrigin} (port ${config.port})`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    bootLogger.log(`${signal} received: finishing in-flight requests`);
    // Idle keep-alive sockets would hold server.close() open; in-flight requests still finish.
    server.closeIdleConnections?.();
    const forceExit = setTimeout(() => process.exit(1), 15_000);
    forceExit.unref();
    await app.close();
    await database.stop();
    bootLogger.log('Stopped cleanly');
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  bootLogger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
