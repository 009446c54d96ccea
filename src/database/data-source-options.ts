import { join } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import { FailoverAwareClient } from './failover-aware-client';

/** Connections per process unless DATABASE_POOL_SIZE says otherwise. */
export const DEFAULT_POOL_SIZE = 20;

/** How long the app waits on PostgreSQL before it gives up and answers 503. */
export interface DatabaseTimeouts {
  /** Longest statement; the server cancels it (a few long-running paths set their own, see sql.ts). */
  statementMs: number;
  /** Longest a transaction may sit idle before the server ends its session. */
  idleInTransactionMs: number;
  /** Longest wait for a pooled connection (a new one, or a free one when all are busy). */
  acquireMs: number;
}

/**
 * A request's statements are short (long work — uploads, streams, profiles, connector writes —
 * sets its own limits, LONG_WORK_LIMITS_MS), so a frozen server is given up on after seconds for
 * reads as for writes, not after half a minute.
 */
export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = {
  statementMs: 5_000,
  idleInTransactionMs: 60_000,
  acquireMs: 5_000,
};

/**
 * A server that does not answer at all (stopped, network gone) cannot cancel a statement itself:
 * the client gives up on the answer this much after the statement limit.
 */
export const NO_ANSWER_GRACE_MS = 1_000;

/** pg connection settings that bound every statement and idle transaction of a session. */
export function sessionTimeouts(timeouts: Pick<DatabaseTimeouts, 'statementMs' | 'idleInTransactionMs'>) {
  return {
    statement_timeout: timeouts.statementMs,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
    query_timeout: timeouts.statementMs + NO_ANSWER_GRACE_MS,
  };
}

/**
 * Planner settings of every app session. PostgreSQL's default random_page_cost (4) prices a page
 * read out of order as if from a spinning disk; the app's catalogue and grant tables are small and
 * cached, and with 4 the planner read all 10,000 datasets to test each against a search that
 * matched a third of them (10–15 ms) instead of taking the matches from the search indexes (4 ms).
 * 1.1 is PostgreSQL's own advice for SSDs; a setting of the session, so other users are untouched.
 */
export const SESSION_PLANNER_OPTIONS = '-c random_page_cost=1.1';

/**
 * Options shared by the app, the TypeORM CLI (ormconfig.ts) and the tests. The app passes its
 * timeouts; the CLI and migrations run without a statement limit (a migration may take long).
 */
export function buildDataSourceOptions(
  url: string,
  poolSize = DEFAULT_POOL_SIZE,
  timeouts?: DatabaseTimeouts,
): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: [join(__dirname, '..', '**', 'entities', '*.entity.{ts,js}')],
    migrations: [join(__dirname, 'migrations', '*.{ts,js}')],
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    extra: {
      max: poolSize,
      // Connections that survive a database failover without crashing or writing to a demoted primary.
      Client: FailoverAwareClient,
      // Fail fast instead of queueing forever when the server is gone; the error filter answers 503.
      connectionTimeoutMillis: timeouts?.acquireMs ?? DEFAULT_DATABASE_TIMEOUTS.acquireMs,
      options: SESSION_PLANNER_OPTIONS,
      ...(timeouts ? sessionTimeouts(timeouts) : {}),
    },
  };
}
