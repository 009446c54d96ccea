import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { PROJECT_ROOT } from '../common/paths';
import { PRODUCT_NAME } from '../common/product';
import {
  DatabaseTimeouts,
  DEFAULT_DATABASE_TIMEOUTS,
  DEFAULT_POOL_SIZE,
} from '../database/data-source-options';
import { DEFAULT_TERMS_MARKDOWN } from './default-terms';
import { ConfigError, parseEnvironment } from './environment';
import { PaymentsConfig, settlePayments } from './payments-config';

/** The app's settled configuration: validated values plus defaults and generated local secrets. */
export interface AppConfig {
  nodeEnv: 'development' | 'production' | 'test';
  isProduction: boolean;
  port: number;
  databaseUrl?: string;
  /** Connections each app process keeps to PostgreSQL at most (uploads use one more each). */
  databasePoolSize: number;
  /** Statement, idle-in-transaction and pool-acquisition limits of the app's connections. */
  databaseTimeouts: DatabaseTimeouts;
  appOrigin: string;
  sessionSecret: string;
  /** Days after login when a session ends however much it is used. */
  sessionLifetimeDays: number;
  encryptionKey: Buffer;
  smtpUrl?: string;
  mailFrom: string;
  seed: boolean;
  maxUploadBytes: number;
  /** Longest a request body may send nothing before it is refused with 408 (see request-body-limits.ts). */
  requestBodyIdleSeconds: number;
  /** Most bytes an .xlsx or .parquet upload may unpack to, and most CSV text it may become. */
  maxExpandedUploadBytes: number;
  connectorAllowPrivateNetworks: boolean;
  contactFormUrl?: string;
  /** The terms of use shown on /terms (TERMS_FILE, else the shipped text). */
  termsMarkdown: string;
  dataDir: string;
  /** Folder of the built single-page app served from `/`. */
  webRoot: string;
  trustProxy: boolean;
  logLevel: 'error' | 'warn' | 'log' | 'debug' | 'verbose';
  /**
   * What this process does: `all` serves HTTP and runs connectors, `web` serves HTTP and queues
   * runs, `worker` runs scheduled and queued connector runs and answers only its health check.
   */
  processRole: ProcessRole;
  /** Port of a worker's health check. */
  workerHealthPort: number;
  /** How often a running process looks for runs queued by web processes. */
  runQueuePollMs: number;
  /** A streaming replica for catalogue and data reads (see database/read-replica.ts). */
  databaseReadUrl?: string;
  /** Replay lag beyond which reads go back to the primary. */
  databaseReadMaxLagMs: number;
  /** Streaming replicas the primary should have; fewer make the health check say "degraded". */
  databaseExpectedReplicas: number;
  /**
   * A connection straight to PostgreSQL (not through a transaction-mode pooler) for the work that
   * keeps state in its session: migrations' and runners' advisory locks. Defaults to databaseUrl.
   */
  databaseDirectUrl?: string;
  /** Whether this process's scheduler claims due refreshes (never in a web process). */
  schedulerEnabled: boolean;
  /** Longest a synchronous Run Now request waits for its run before answering with the run id. */
  runNowWaitSeconds: number;
  /** Seconds between two scheduler passes looking for due connector refreshes. */
  schedulerTickSeconds: number;
  /**
   * User SQL: the longest statement, the most rows one API answer streams, the most statements
   * running at once on the database server (all processes together), and how long one more waits
   * for a free place before it is refused.
   */
  query: {
    timeoutMs: number;
    maxRows: number;
    maxConcurrent: number;
    queueMs: number;
    /** What one statement's sorts, hashes and tuplestores may hold together. */
    memoryMb: number;
    /**
     * A streaming replica that runs user SQL instead of the primary (QUERY_DATABASE_URL), so a
     * flood of heavy queries never takes the primary's CPU, memory or disk from the catalogue.
     */
    databaseUrl?: string;
  };
  /** Which provider checks out paid datasets (test or Stripe) and its settings. */
  payments: PaymentsConfig;
}

export type ProcessRole = 'all' | 'web' | 'worker';

export const APP_CONFIG = Symbol('APP_CONFIG');

/** The operator's terms; a start with a missing or empty file stops with a clear message. */
function readTermsFile(path: string): string {
  let text: string;
  try {
    text = readFileSync(resolve(path), 'utf8');
  } catch {
    throw new ConfigError(`Invalid configuration:\n  TERMS_FILE: cannot read ${JSON.stringify(path)}`);
  }
  if (!text.trim())
    throw new ConfigError(`Invalid configuration:\n  TERMS_FILE: ${JSON.stringify(path)} is empty`);
  return text;
}

interface LocalSecrets {
  SESSION_SECRET: string;
  ENCRYPTION_KEY: string;
}

/**
 * Secrets for local use are generated once and kept under the data folder, so sessions and
 * encrypted values survive restarts without anyone having to invent a key.
 */
function loadOrCreateLocalSecrets(dataDir: string): LocalSecrets {
  const file = join(dataDir, 'secrets.json');
  if (existsSync(file)) {
    return JSON.parse(readFileSync(file, 'utf8')) as LocalSecrets;
  }
  mkdirSync(dataDir, { recursive: true });
  const secrets: LocalSecrets = {
    SESSION_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

export function loadConfig(raw: NodeJS.ProcessEnv = process.env): AppConfig {
  const env = parseEnvironment(raw);
  const nodeEnv = env.NODE_ENV ?? 'development';
  const isProduction = nodeEnv === 'production';
  const dataDir = resolve(env.DATA_DIR ?? '.data');
  const port = env.PORT ?? 3000;
  const processRole = env.PROCESS_ROLE ?? 'all';

  let sessionSecret = env.SESSION_SECRET;
  let encryptionKey = env.ENCRYPTION_KEY;
  if (!sessionSecret || !encryptionKey) {
    if (isProduction) {
      const missing = [!sessionSecret && 'SESSION_SECRET', !encryptionKey && 'ENCRYPTION_KEY'].filter(
        Boolean,
      );
      throw new ConfigError(
        `Invalid configuration:\n  ${missing.join(', ')}: required when NODE_ENV=production`,
      );
    }
    const local = loadOrCreateLocalSecrets(dataDir);
    sessionSecret ??= local.SESSION_SECRET;
    encryptionKey ??= local.ENCRYPTION_KEY;
  }

  return {
    nodeEnv,
    isProduction,
    port,
    databaseUrl: env.DATABASE_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE ?? DEFAULT_POOL_SIZE,
    databaseTimeouts: {
      statementMs: env.DATABASE_STATEMENT_TIMEOUT_MS ?? DEFAULT_DATABASE_TIMEOUTS.statementMs,
      idleInTransactionMs: env.DATABASE_IDLE_TRANSACTION_MS ?? DEFAULT_DATABASE_TIMEOUTS.idleInTransactionMs,
      acquireMs: env.DATABASE_ACQUIRE_TIMEOUT_MS ?? DEFAULT_DATABASE_TIMEOUTS.acquireMs,
    },
    appOrigin: env.APP_ORIGIN ?? `http://localhost:${port}`,
    sessionSecret,
    sessionLifetimeDays: env.SESSION_LIFETIME_DAYS ?? 30,
    encryptionKey: Buffer.from(encryptionKey, 'hex'),
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM ?? `${PRODUCT_NAME} <no-reply@localhost>`,
    // A production database gets demo content only when asked for it.
    seed: env.SEED ?? !isProduction,
    maxUploadBytes: (env.MAX_UPLOAD_MB ?? 1024) * 1024 * 1024,
    requestBodyIdleSeconds: env.REQUEST_BODY_IDLE_SECONDS ?? 30,
    maxExpandedUploadBytes: (env.MAX_EXPANDED_UPLOAD_MB ?? 4 * (env.MAX_UPLOAD_MB ?? 1024)) * 1024 * 1024,
    connectorAllowPrivateNetworks: env.CONNECTOR_ALLOW_PRIVATE_NETWORKS ?? false,
    contactFormUrl: env.CONTACT_FORM_URL,
    termsMarkdown: env.TERMS_FILE ? readTermsFile(env.TERMS_FILE) : DEFAULT_TERMS_MARKDOWN,
    dataDir,
    webRoot: resolve(env.WEB_ROOT ?? join(PROJECT_ROOT, 'frontend', 'dist')),
    trustProxy: env.TRUST_PROXY ?? false,
    logLevel: env.LOG_LEVEL ?? 'log',
    processRole,
    workerHealthPort: env.WORKER_HEALTH_PORT ?? 3001,
    runQueuePollMs: env.RUN_QUEUE_POLL_MS ?? 500,
    databaseReadUrl: env.DATABASE_READ_URL,
    databaseReadMaxLagMs: env.DATABASE_READ_MAX_LAG_MS ?? 2_000,
    databaseExpectedReplicas: env.DATABASE_EXPECTED_REPLICAS ?? 0,
    databaseDirectUrl: env.DATABASE_DIRECT_URL,
    schedulerEnabled: processRole !== 'web' && (env.SCHEDULER_ENABLED ?? true),
    runNowWaitSeconds: env.RUN_NOW_WAIT_SECONDS ?? 20,
    schedulerTickSeconds: env.SCHEDULER_TICK_SECONDS ?? 20,
    query: {
      timeoutMs: env.QUERY_TIMEOUT_MS ?? 10_000,
      maxRows: env.QUERY_MAX_ROWS ?? 1_000_000,
      maxConcurrent: env.QUERY_MAX_CONCURRENT ?? 2 * availableParallelism(),
      queueMs: env.QUERY_QUEUE_MS ?? 2_000,
      memoryMb: env.QUERY_MEMORY_MB ?? 256,
      databaseUrl: env.QUERY_DATABASE_URL,
    },
    payments: settlePayments(env, isProduction),
  };
}
