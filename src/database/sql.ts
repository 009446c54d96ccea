import { Client, ClientBase, Pool, QueryResultRow } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import { NO_ANSWER_GRACE_MS, sessionTimeouts } from './data-source-options';

/**
 * The database helpers every module uses: the pg pool behind TypeORM, one way to run a raw
 * statement on any connection, transactions on a held connection, and the error codes we act on.
 * Which data-access style fits which work is written down in docs/architecture.md.
 */

/** The answer of one raw statement: its rows and how many rows it touched. */
export interface SqlResult<Row> {
  rows: Row[];
  rowCount: number;
}

/** Runs one raw statement; built by sqlOn() for a pg connection or pool, the data source or a transaction's manager. */
export type Sql = <Row extends QueryResultRow = QueryResultRow>(
  text: string,
  values?: unknown[],
) => Promise<SqlResult<Row>>;

/** The pg pool behind TypeORM's data source, for work that needs pg itself (COPY, held connections). */
export function pgPool(dataSource: DataSource): Pool {
  return (dataSource.driver as unknown as { master: Pool }).master;
}

/**
 * The work that may run longer than the pool's statement limit, each with a limit of its own: a
 * CSV upload's COPY runs as fast as the upload arrives, a stream's COPY as fast as the client
 * reads, and a connector run's COPY spans every page fetched from the upstream API.
 */
export const LONG_WORK_LIMITS_MS = {
  ingest: 60 * 60_000,
  stream: 60 * 60_000,
  connectorWrite: 3 * 60 * 60_000,
} as const;

/** Statement limits for a dedicated connection; the pool's own unless the work sets its own. */
export interface DedicatedLimits {
  statementMs?: number;
  idleInTransactionMs?: number;
}

/** The limits the pool's connections start with (pg keeps them in the pool's options). */
function poolLimits(dataSource: DataSource): DedicatedLimits {
  const options = pgPool(dataSource).options as {
    statement_timeout?: number;
    idle_in_transaction_session_timeout?: number;
  };
  return {
    statementMs: options.statement_timeout,
    idleInTransactionMs: options.idle_in_transaction_session_timeout,
  };
}

/** DATABASE_DIRECT_URL of the app's data source, when it differs from the pool's (a pooler). */
const directUrls = new WeakMap<DataSource, string>();

/** Dedicated connections of this data source go straight to PostgreSQL at `url`, not through its pooler. */
export function connectDedicatedTo(dataSource: DataSource, url: string | undefined): void {
  if (url) directUrls.set(dataSource, url);
}

/** PostgreSQL itself: DATABASE_DIRECT_URL when one is set, else the pool's own URL. */
export function directUrlOf(dataSource: DataSource): string | undefined {
  return directUrls.get(dataSource) ?? (dataSource.options as { url?: string }).url;
}

/**
 * A connection of its own, outside the pool (not yet connected), for work that must never hold a
 * pooled one: a long upload, a connector run's writes, the runner's liveness lock. It keeps state
 * across transactions (a session advisory lock, statement limits set at connect), so it goes to
 * DATABASE_DIRECT_URL when one is set: a transaction-mode pooler would drop that state
 * (docs/deployment.md).
 */
export function dedicatedClient(
  dataSource: DataSource,
  applicationName: string,
  limits: DedicatedLimits = {},
): Client {
  const url = directUrlOf(dataSource);
  const { statementMs, idleInTransactionMs } = { ...poolLimits(dataSource), ...limits };
  const bounded =
    statementMs !== undefined && idleInTransactionMs !== undefined
      ? sessionTimeouts({ statementMs, idleInTransactionMs })
      : {};
  return new Client({ connectionString: url, application_name: applicationName, ...bounded });
}

/** pg reads the client-side answer limit from here on every query. */
function answerLimitOf(client: ClientBase): { query_timeout?: number } {
  return (client as unknown as { connectionParameters: { query_timeout?: number } }).connectionParameters;
}

/** How long a connection waits for the answer to a statement before it gives up (undefined: for ever). */
export function answerLimitMs(client: ClientBase): number | undefined {
  return answerLimitOf(client).query_timeout;
}

/**
 * The statement limit of long work for the rest of a transaction: `sql` (a `SET LOCAL`, which
 * ends with the transaction, so no reset is sent) goes out with the statement opening it, and
 * the driver's answer timer follows at once; `restore` puts the timer back.
 */
export function localStatementLimit(
  client: ClientBase,
  limitMs: number,
): { sql: string; restore: () => void } {
  const parameters = answerLimitOf(client);
  const poolAnswerLimit = parameters.query_timeout;
  parameters.query_timeout = limitMs + NO_ANSWER_GRACE_MS;
  return {
    sql: `SET LOCAL statement_timeout = ${Math.trunc(limitMs)}`,
    restore: () => {
      parameters.query_timeout = poolAnswerLimit;
    },
  };
}

/**
 * One calling convention for raw SQL whatever runs it. TypeORM answers a bare UPDATE or DELETE as
 * [rows, count]; inside a transaction its structured result is read instead, so every caller sees
 * rows. A manager must belong to a transaction (`dataSource.transaction(manager => ...)`).
 */
export function sqlOn(target: ClientBase | Pool | DataSource | EntityManager): Sql {
  if (target instanceof EntityManager) {
    const runner = target.queryRunner;
    if (!runner) throw new Error('sqlOn needs the manager of a transaction');
    return async (text, values) => {
      const result = await runner.query(text, values, true);
      return { rows: result.records, rowCount: result.affected ?? result.records.length };
    };
  }
  const pg = target instanceof DataSource ? pgPool(target) : target;
  return async <Row extends QueryResultRow>(text: string, values?: unknown[]) => {
    const result = await pg.query<Row>(text, values);
    return { rows: result.rows, rowCount: result.rowCount ?? 0 };
  };
}

/**
 * Runs `work` in one transaction on a connection the caller already holds for longer work (the
 * connector writer's staging and swap): rolls back on any error. App rows use
 * `dataSource.transaction()` instead.
 */
export async function transactionOn<T>(
  client: ClientBase,
  work: () => Promise<T>,
  options: { statementLimitMs?: number } = {},
): Promise<T> {
  // A longer limit for long work is set for this transaction only (SET LOCAL): behind a pooler in
  // transaction mode a session setting would stay on whichever server connection ran it.
  const limit =
    options.statementLimitMs === undefined
      ? undefined
      : localStatementLimit(client, options.statementLimitMs);
  try {
    await client.query(limit ? `BEGIN; ${limit.sql}` : 'BEGIN');
    try {
      const result = await work();
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    limit?.restore();
  }
}

/** SQLSTATE of a failed statement, through TypeORM's QueryFailedError wrapper when there is one. */
function sqlState(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const { code, driverError } = error as { code?: unknown; driverError?: { code?: unknown } };
  if (typeof driverError?.code === 'string') return driverError.code;
  return typeof code === 'string' ? code : undefined;
}

/** A unique index refused the row (23505): someone else holds that e-mail, slug or running run. */
export function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === '23505';
}

/** A lock was not granted within lock_timeout (55P03). */
export function isLockTimeout(error: unknown): boolean {
  return sqlState(error) === '55P03';
}

/** A value did not fit its column's type (SQLSTATE class 22, data exception). */
export function isDataException(error: unknown): boolean {
  return sqlState(error)?.startsWith('22') ?? false;
}

/** Connection-level failures (server down, restarting, refusing) as opposed to a bad query. */
const UNAVAILABLE_CODES = new Set([
  // A statement cancelled by its time limit: the database is too slow or stalled right now.
  '57014',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  // A write reached a read-only server: a primary demoted by a failover (see failover-aware-client.ts).
  '25006',
]);

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message, driverError } = error as { code?: string; message?: string; driverError?: unknown };
  if (driverError && driverError !== error && isDatabaseUnavailable(driverError)) return true;
  if (code && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout/i.test(
    message ?? '',
  );
}
