import { Logger, LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { configureApp } from './app.setup';
import { AppLogger } from './common/logging/app-logger';
import type { AppConfig } from './config/app-config';
import { connectDedicatedTo } from './database/sql';
import { DataSource } from 'typeorm';

/** Creates the fully configured (not yet listening) app on an already migrated database. */
export async function createApp(
  config: AppConfig,
  databaseUrl: string,
  options: { logger?: false | LoggerService } = {},
): Promise<NestExpressApplication> {
  const logger = options.logger ?? new AppLogger(config.logLevel);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot({ config, databaseUrl }), {
    logger,
    bodyParser: true,
    bufferLogs: false,
    // A module that fails to start throws here with its reason, to the caller (main or a test),
    // instead of Nest ending the whole process.
    abortOnError: false,
  });
  connectDedicatedTo(app.get(DataSource), config.databaseDirectUrl);
  configureApp(app, config);
  await app.init();
  return app;
}

export const bootLogger = new Logger('Bootstrap');
