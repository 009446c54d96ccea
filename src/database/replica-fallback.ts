import type { Pool, PoolClient } from 'pg';

type ConnectCallback = (
  error: Error | undefined,
  client?: PoolClient,
  release?: (error?: unknown) => void,
) => void;

/** Errors of a server that is gone or going (refused, reset, shut down), not of a statement. */
export function isServerGone(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  if (
    code &&
    ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND'].includes(code)
  )
    return true;
  // 57P01-57P03: admin shutdown, crash shutdown, cannot connect now (starting or stopping).
  if (code && /^57P0[1-3]$/.test(code)) return true;
  return /Connection terminated|timeout exceeded when trying to connect/i.test(message ?? '');
}

/**
 * A read whose replica connection cannot be had goes to the primary at once, instead of failing
 * until the next freshness probe notices: the replica pool's `connect` (which its `query` and
 * TypeORM both call) hands out a primary connection when the replica refuses, and `onGone` tells
 * the router to send the following reads to the primary too.
 */
export function fallBackToPrimary(replica: Pool, primary: Pool, onGone: () => void): void {
  const connectReplica = replica.connect.bind(replica) as (callback: ConnectCallback) => void;
  const connect = (callback: ConnectCallback) =>
    connectReplica((error, client, release) => {
      if (!error || !isServerGone(error)) return callback(error, client, release);
      onGone();
      (primary.connect as unknown as (callback: ConnectCallback) => void)(callback);
    });
  (replica as unknown as { connect: unknown }).connect = (callback?: ConnectCallback) => {
    if (callback) return connect(callback);
    return new Promise<PoolClient>((resolve, reject) =>
      connect((error, client) => (error ? reject(error) : resolve(client!))),
    );
  };
}

/** Calls `noted` whenever something asks the pool for a connection (its `query` and TypeORM both do). */
export function onEveryConnect(pool: Pool, noted: () => void): void {
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { connect: unknown }).connect = (...args: unknown[]) => {
    noted();
    return connect(...args);
  };
}
