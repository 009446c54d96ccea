import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/bootstrap';
import { AppConfig, loadConfig } from '../../src/config/app-config';
import { runMigrations } from '../../src/database/migrate';
import { createTestDatabase } from '../setup/test-database';

export const TEST_ORIGIN = 'http://localhost:3000';
/**
 * Longest a test app may take to close. Closing waits for runs in flight and the pool's
 * connections, which can drag on when the machine is starved; a teardown must never be why a run
 * fails, and what is left open ends with the test process (or its database's drop).
 */
export const CLOSE_BOUND_MS = 10_000;

export interface TestApp {
  app: NestExpressApplication;
  config: AppConfig;
  dataSource: DataSource;
  /** A supertest agent without cookies. */
  http: ReturnType<typeof request>;
  /** A new cookie-keeping agent, like one browser. */
  agent(): ReturnType<typeof request.agent>;
  close(): Promise<void>;
}

export function testDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is missing: run the tests through jest (global setup)');
  return url;
}

export function testConfig(overrides: Record<string, string> = {}): AppConfig {
  return loadConfig({
    NODE_ENV: 'test',
    SEED: 'false',
    APP_ORIGIN: TEST_ORIGIN,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'dm-test-data-')),
    SESSION_SECRET: 'test-session-secret-that-is-long-enough-0123456789',
    ENCRYPTION_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    SCHEDULER_ENABLED: 'false',
    LOG_LEVEL: 'error',
    // Suites that boot as production test other things than payments; the payment rules have their own tests.
    ALLOW_TEST_PAYMENTS_IN_PRODUCTION: 'true',
    ...overrides,
  });
}

/** Boots the whole app (every module, real Postgres) the way main.ts does, without listening. */
export async function createTestApp(overrides: Record<string, string> = {}): Promise<TestApp> {
  return createTestAppOn(testDatabaseUrl(), overrides);
}

/**
 * The app on a database of the caller's (already migrated), for suites whose background work
 * (scheduler, seed) must not see or touch what other suites create in the shared test database.
 */
export async function createTestAppOn(url: string, overrides: Record<string, string> = {}): Promise<TestApp> {
  const config = testConfig(overrides);
  // Quiet from the start, not only once Nest applies `logger: false`: AppModule.forRoot runs first,
  // and with two apps in one test process (web and worker) TypeORM's registry would warn there
  // that a data source named "default" exists already, true of the process and harmless per app.
  Logger.overrideLogger(false);
  const app = await createApp(config, url, { logger: false });
  const server = app.getHttpServer();
  return {
    app,
    config,
    dataSource: app.get(DataSource),
    http: request(server),
    agent: () => request.agent(server),
    close: () => closeWithinBound(app),
  };
}

/** Closes the app, or gives up waiting after CLOSE_BOUND_MS. */
export async function closeWithinBound(app: NestExpressApplication): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const outlasted = new Promise<'outlasted'>((resolve) => {
    timer = setTimeout(() => resolve('outlasted'), CLOSE_BOUND_MS);
  });
  const outcome = await Promise.race([app.close().then(() => 'closed' as const), outlasted]).finally(() =>
    clearTimeout(timer),
  );
  if (outcome === 'outlasted')
    process.stderr.write(`A test app took over ${CLOSE_BOUND_MS} ms to close; left behind\n`);
}

/**
 * The app on a fresh, migrated database of its own, dropped on close. For suites whose work
 * shows in server-wide views (pg_stat_activity: long uploads, killed connections) that other
 * suites check in the shared test database.
 */
export async function createIsolatedTestApp(prefix: string): Promise<TestApp> {
  const database = await createTestDatabase(prefix);
  try {
    await runMigrations(database.url);
    const testApp = await createTestAppOn(database.url);
    return {
      ...testApp,
      close: async () => {
        await testApp.close();
        await database.drop();
      },
    };
  } catch (error) {
    await database.drop();
    throw error;
  }
}
