import type { Client } from 'pg';
import { TooManyRequestsException } from '../../common/rate-limit/too-many-requests.exception';

/** Statements one user may have running at once, over all app processes. */
export const MAX_RUNNING_PER_USER = 2;

/** How often a query waiting for a free place asks again. */
const RETRY_MS = 50;

export interface QuerySlots {
  /** Whose statement it is: a user's statements are counted together. */
  userKey: string;
  /** Most user statements running at once on the database server, all processes together. */
  maxConcurrent: number;
  /** How long a statement waits for a free place before it is refused. */
  queueMs: number;
}

/**
 * Takes a place for the statement about to run: one of the user's MAX_RUNNING_PER_USER places (or
 * 429 at once), then one of `maxConcurrent` places on the server (waiting up to `queueMs`, then
 * 429). Each place is a transaction-level advisory lock taken on the statement's own connection
 * inside its transaction, so it is held exactly as long as the statement can run or stream and
 * is given back by the server when the transaction or the connection ends, whatever becomes of
 * this process; a transaction-pooling PgBouncer keeps it too.
 */
export async function claimQuerySlot(client: Client, slots: QuerySlots): Promise<void> {
  // `LIMIT 1` over a function scan stops at the first place taken: never more than one lock.
  const { rows: own } = await client.query<{ place: number | null }>(
    `SELECT (SELECT place FROM pg_catalog.generate_series(1, $2::int) AS place
              WHERE pg_catalog.pg_try_advisory_xact_lock(pg_catalog.hashtext('user query of a user'),
                                                         pg_catalog.hashtext($1 || '/' || place))
              LIMIT 1) AS place`,
    [slots.userKey, MAX_RUNNING_PER_USER],
  );
  if (own[0].place === null)
    throw new TooManyRequestsException(
      `At most ${MAX_RUNNING_PER_USER} queries run at a time: wait for one to finish or cancel it`,
      1,
    );
  const deadline = Date.now() + slots.queueMs;
  for (;;) {
    const { rows } = await client.query<{ place: number | null }>(
      `SELECT (SELECT place FROM pg_catalog.generate_series(1, $1::int) AS place
                WHERE pg_catalog.pg_try_advisory_xact_lock(pg_catalog.hashtext('user query'), place)
                LIMIT 1) AS place`,
      [slots.maxConcurrent],
    );
    if (rows[0].place !== null) return;
    if (Date.now() + RETRY_MS > deadline)
      throw new TooManyRequestsException(
        'The server is running as many queries as it can at the moment: please try again in a few seconds',
        2,
      );
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}
