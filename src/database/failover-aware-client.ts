import { Client } from 'pg';

/** SQLSTATE of a write refused by a server in recovery: the connection reached a replica or a demoted primary. */
export const READ_ONLY_SQL_TRANSACTION = '25006';

function sqlStateOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * The pg client of every pool the app makes (buildDataSourceOptions), for deployments where the
 * primary can change under the app (docs/deployment.md, "Automatic failover"):
 *
 * - A connection held out of the pool outside TypeORM (a connector run's COPY, a stream) has no
 *   `error` listener while held; when its server dies, pg's `error` event would then crash the
 *   process. The failure still reaches the statement that was waiting; the client just is not
 *   reused (pg-pool drops clients that are no longer queryable).
 * - A write refused because the server is read only (25006: the connection was made to a primary
 *   that has since been demoted, before the proxy's check noticed) ends the connection at once:
 *   the pool opens a new one, through the proxy, to the new leader. The request itself fails with
 *   the app's 503 "retry shortly" (isDatabaseUnavailable); nothing was written.
 */
export class FailoverAwareClient extends Client {
  constructor(...args: ConstructorParameters<typeof Client>) {
    super(...args);
    this.on('error', () => undefined);
  }

  // pg's overloads (promise, callback, submittable) all pass through; only a promise is watched.
  override query(...args: unknown[]): never {
    const result = (super.query as (...passed: unknown[]) => unknown).apply(this, args);
    if (result instanceof Promise)
      result.catch((error: unknown) => {
        if (sqlStateOf(error) === READ_ONLY_SQL_TRANSACTION) void this.end().catch(() => undefined);
      });
    return result as never;
  }
}
