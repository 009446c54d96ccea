import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './app-config';
import { ConfigError, parseEnvironment } from './environment';
import { sessionTimeouts } from '../database/data-source-options';

const freshDataDir = () => mkdtempSync(join(tmpdir(), 'dm-config-'));

describe('configuration', () => {
  it('gives up on a database that does not answer within seconds by default, for reads as for writes', () => {
    const { databaseTimeouts } = loadConfig({ NODE_ENV: 'test', DATA_DIR: freshDataDir() });
    const noAnswerBound = sessionTimeouts(databaseTimeouts).query_timeout;
    expect(noAnswerBound).toBeLessThanOrEqual(databaseTimeouts.acquireMs + 1_000);
    expect(noAnswerBound).toBeLessThanOrEqual(6_000);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['APP_ORIGIN', 'localhost:3000'],
    ['SESSION_SECRET', 'too-short'],
    ['ENCRYPTION_KEY', 'not-hex'],
    ['SMTP_URL', 'http://mail.example.com'],
    ['SEED', 'maybe'],
    ['MAX_UPLOAD_MB', '0'],
    ['MAX_EXPANDED_UPLOAD_MB', '0'],
    ['CONNECTOR_ALLOW_PRIVATE_NETWORKS', 'sometimes'],
    ['SCHEDULER_TICK_SECONDS', '0'],
    ['SCHEDULER_TICK_SECONDS', '1.5'],
    ['DATABASE_POOL_SIZE', '1'],
    ['DATABASE_POOL_SIZE', 'many'],
    ['PROCESS_ROLE', 'scheduler'],
    ['DATABASE_READ_URL', 'mysql://replica/db'],
    ['DATABASE_READ_MAX_LAG_MS', '10'],
    ['RUN_QUEUE_POLL_MS', 'often'],
    ['QUERY_DATABASE_URL', 'replica:5432/marketplace'],
  ])('refuses %s=%s with a message naming the variable', (name, value) => {
    expect(() => parseEnvironment({ [name]: value })).toThrow(ConfigError);
    expect(() => parseEnvironment({ [name]: value })).toThrow(new RegExp(`\\b${name}\\b`));
  });

  it.each([
    ['SESSION_SECRET', 'short-but-secret'],
    ['ENCRYPTION_KEY', 'secret-not-hex'],
    ['DATABASE_URL', 'mysql://admin:hunter2@db/marketplace'],
    ['DATABASE_READ_URL', 'mysql://admin:hunter2@replica/marketplace'],
    ['DATABASE_DIRECT_URL', 'mysql://admin:hunter2@db/marketplace'],
    ['QUERY_DATABASE_URL', 'mysql://admin:hunter2@query-replica/marketplace'],
    ['SMTP_URL', 'http://mailer:hunter2@mail.example.com'],
  ])('names %s but never repeats its rejected value', (name, value) => {
    const attempt = () => parseEnvironment({ [name]: value });
    expect(attempt).toThrow(`${name}: `);
    expect(attempt).toThrow(`(got a value of ${value.length} characters, not shown)`);
    expect(attempt).not.toThrow(/hunter2|secret/);
  });

  it('runs user SQL on the primary unless QUERY_DATABASE_URL names a replica', () => {
    expect(loadConfig({ NODE_ENV: 'test', DATA_DIR: freshDataDir() }).query.databaseUrl).toBeUndefined();
    const url = 'postgres://app:secret@query-replica:5432/marketplace';
    expect(
      loadConfig({ NODE_ENV: 'test', DATA_DIR: freshDataDir(), QUERY_DATABASE_URL: url }).query.databaseUrl,
    ).toBe(url);
  });

  it('shows the rejected value of an ordinary variable', () => {
    expect(() => parseEnvironment({ PORT: 'eighty' })).toThrow('(got "eighty")');
  });

  it('accepts a complete valid environment', () => {
    const env = parseEnvironment({
      PORT: '8080',
      DATABASE_URL: 'postgres://user:secret@db:5432/marketplace',
      APP_ORIGIN: 'https://data.example.com',
      SESSION_SECRET: 'x'.repeat(40),
      ENCRYPTION_KEY: 'ab'.repeat(32),
      SMTP_URL: 'smtps://user:pass@smtp.example.com:465',
      SEED: 'false',
      DATABASE_POOL_SIZE: '40',
    });
    expect(env).toMatchObject({ PORT: 8080, SEED: false, DATABASE_POOL_SIZE: 40 });
  });

  it('applies defaults and generates local secrets once, then reuses them', () => {
    const dataDir = freshDataDir();
    const first = loadConfig({ DATA_DIR: dataDir });
    expect(first).toMatchObject({
      port: 3000,
      appOrigin: 'http://localhost:3000',
      seed: true,
      databasePoolSize: 20,
    });
    expect(first.maxUploadBytes).toBe(1024 * 1024 * 1024);
    expect(first.maxExpandedUploadBytes).toBe(4 * 1024 * 1024 * 1024);
    expect(loadConfig({ DATA_DIR: dataDir, MAX_UPLOAD_MB: '10' }).maxExpandedUploadBytes).toBe(
      40 * 1024 * 1024,
    );
    expect(
      loadConfig({ DATA_DIR: dataDir, MAX_UPLOAD_MB: '10', MAX_EXPANDED_UPLOAD_MB: '15' })
        .maxExpandedUploadBytes,
    ).toBe(15 * 1024 * 1024);
    expect(first.schedulerTickSeconds).toBe(20);
    expect(loadConfig({ DATA_DIR: dataDir, SCHEDULER_TICK_SECONDS: '2' }).schedulerTickSeconds).toBe(2);
    expect(first.encryptionKey).toHaveLength(32);
    const stored = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8'));
    expect(stored.SESSION_SECRET).toBe(first.sessionSecret);
    const second = loadConfig({ DATA_DIR: dataDir });
    expect(second.sessionSecret).toBe(first.sessionSecret);
    expect(second.encryptionKey.equals(first.encryptionKey)).toBe(true);
  });

  it('seeds by default only outside production; SEED=true asks for it in production', () => {
    // Payments are beside the point here; production otherwise refuses the test provider.
    const secrets = {
      SESSION_SECRET: 'x'.repeat(40),
      ENCRYPTION_KEY: 'ab'.repeat(32),
      ALLOW_TEST_PAYMENTS_IN_PRODUCTION: 'true',
    };
    expect(loadConfig({ NODE_ENV: 'production', ...secrets }).seed).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', SEED: 'true', ...secrets }).seed).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development', ...secrets }).seed).toBe(true);
  });

  it('bounds database statements, idle transactions and connection waits, 5 s / 60 s / 5 s by default', () => {
    const secrets = { SESSION_SECRET: 'x'.repeat(40), ENCRYPTION_KEY: 'ab'.repeat(32) };
    expect(loadConfig(secrets).databaseTimeouts).toEqual({
      statementMs: 5_000,
      idleInTransactionMs: 60_000,
      acquireMs: 5_000,
    });
    expect(
      loadConfig({
        ...secrets,
        DATABASE_STATEMENT_TIMEOUT_MS: '2000',
        DATABASE_IDLE_TRANSACTION_MS: '3000',
        DATABASE_ACQUIRE_TIMEOUT_MS: '400',
      }).databaseTimeouts,
    ).toEqual({ statementMs: 2_000, idleInTransactionMs: 3_000, acquireMs: 400 });
    expect(() => parseEnvironment({ DATABASE_STATEMENT_TIMEOUT_MS: '0' })).toThrow(
      /DATABASE_STATEMENT_TIMEOUT_MS/,
    );
  });

  it('ends sessions 30 days after login unless SESSION_LIFETIME_DAYS says otherwise', () => {
    const secrets = { SESSION_SECRET: 'x'.repeat(40), ENCRYPTION_KEY: 'ab'.repeat(32) };
    expect(loadConfig(secrets).sessionLifetimeDays).toBe(30);
    expect(loadConfig({ ...secrets, SESSION_LIFETIME_DAYS: '7' }).sessionLifetimeDays).toBe(7);
    expect(() => parseEnvironment({ SESSION_LIFETIME_DAYS: '0' })).toThrow(/SESSION_LIFETIME_DAYS/);
  });

  it('lets Run Now wait 20 s for its run unless RUN_NOW_WAIT_SECONDS says otherwise', () => {
    const secrets = { SESSION_SECRET: 'x'.repeat(40), ENCRYPTION_KEY: 'ab'.repeat(32) };
    expect(loadConfig(secrets).runNowWaitSeconds).toBe(20);
    expect(loadConfig({ ...secrets, RUN_NOW_WAIT_SECONDS: '5' }).runNowWaitSeconds).toBe(5);
    expect(() => parseEnvironment({ RUN_NOW_WAIT_SECONDS: '601' })).toThrow(/RUN_NOW_WAIT_SECONDS/);
  });

  it('runs everything in one process by default; a web process never schedules runs', () => {
    const secrets = { SESSION_SECRET: 'x'.repeat(40), ENCRYPTION_KEY: 'ab'.repeat(32) };
    expect(loadConfig(secrets)).toMatchObject({ processRole: 'all', schedulerEnabled: true });
    expect(loadConfig({ ...secrets, PROCESS_ROLE: 'web', SCHEDULER_ENABLED: 'true' })).toMatchObject({
      processRole: 'web',
      schedulerEnabled: false,
    });
    expect(loadConfig({ ...secrets, PROCESS_ROLE: 'worker' })).toMatchObject({
      processRole: 'worker',
      schedulerEnabled: true,
      workerHealthPort: 3001,
    });
  });

  it('never generates secrets in production: it names the missing ones', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: freshDataDir() })).toThrow(
      /SESSION_SECRET, ENCRYPTION_KEY: required when NODE_ENV=production/,
    );
  });
});
