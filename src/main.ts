import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { bootLogger, createApp } from './bootstrap';
import { AppLogger } from './common/logging/app-logger';
import { markStopping } from './common/process-stopping';
import { limitRequestReading } from './common/request-reading-limits';
import { PRODUCT_NAME, productVersion } from './common/product';
import { ConfigError } from './config/environment';
import { loadConfig } from './config/app-config';
import { DataDirInUseError, lockDataDir } from './database/data-dir-lock';
import { describeDatabase } from './database/database-description';
import { provideDatabase } from './database/database-server';
import { runMigrations } from './database/migrate';
import { startWorkerHealthServer } from './health/worker-health-server';
import { DataSource } from 'typeorm';

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

  const logger = new AppLogger(config.logLevel);
  Logger.overrideLogger(logger);
  bootLogger.log(`${PRODUCT_NAME} ${productVersion()} (Node ${process.version}, ${config.nodeEnv})`);

  // The embedded database lives in the data folder: one app process may use it at a time.
  if (!config.databaseUrl) {
    try {
      lockDataDir(config.dataDir, config.processRole === 'worker' ? config.workerHealthPort : config.port);
    } catch (error) {
      if (!(error instanceof DataDirInUseError)) throw error;
      bootLogger.error(error.message);
      process.exit(73);
    }
  }
  const database = await provideDatabase(config);
  bootLogger.log(await describeDatabase(database));
  // The migration lock is a session advisory lock: straight to PostgreSQL, never through a pooler.
  const applied = await runMigrations(config.databaseDirectUrl ?? database.url);
  bootLogger.log(applied.length > 0 ? `Migrations: applied ${applied.length}` : 'Migrations: none pending');
  if (applied.length > 0) bootLogger.debug(`Migrations applied: ${applied.join(', ')}`);

  const app = await createApp(config, database.url, { logger });
  // A worker serves no API: it runs connectors and answers its health check on a port of its own.
  const server =
    config.processRole === 'worker'
      ? await startWorkerHealthServer(app.get(DataSource), config.workerHealthPort)
      : await app.listen(config.port);
  if (config.processRole !== 'worker') limitRequestReading(server);
  bootLogger.log(
    config.processRole === 'worker'
      ? `Worker running (health check on port ${config.workerHealthPort})`
      : `Open ${config.appOrigin} (listening on port ${config.port}, role ${config.processRole})`,
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    markStopping();
    bootLogger.log(`${signal} received: finishing in-flight requests`);
    // Idle keep-alive sockets would hold server.close() open; in-flight requests still finish.
    server.closeIdleConnections?.();
    const forceExit = setTimeout(() => process.exit(1), 15_000);
    forceExit.unref();
    // Nest closes the API's server itself; the worker's health server is ours to close.
    if (config.processRole === 'worker') server.close();
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
