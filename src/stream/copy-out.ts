import { Logger } from '@nestjs/common';
import { once } from 'node:events';
import type { Socket } from 'node:net';
import type { Duplex, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Pool, PoolClient, QueryResult } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { CopyToStreamQuery } from 'pg-copy-streams';
import { TooManyRequestsException } from '../common/rate-limit/too-many-requests.exception';
import { beginReading, STREAM_READER_NAME } from '../database/data-tables/read-lock';
import { cancelServerBackend, SERVER_BACKEND_SQL, serverBackendOf } from '../database/server-backend';
import { answerLimitMs, LONG_WORK_LIMITS_MS, localStatementLimit, Sql, sqlOn } from '../database/sql';
import { cutWhenStalled, STALLED_CLIENT } from './stalled-client';

const logger = new Logger('CopyOut');

/**
 * Session settings for one stream: UTC and ISO dates so every client sees the same values; no
 * synchronised or parallel scans, so LIMIT/OFFSET pages follow the table's physical order and
 * a BI tool paging through an unchanged table sees every row exactly once.
 */
export const STREAM_SETTINGS = [
  `SET LOCAL TimeZone = 'UTC'`,
  `SET LOCAL DateStyle = 'ISO, YMD'`,
  `SET LOCAL IntervalStyle = 'iso_8601'`,
  `SET LOCAL synchronize_seqscans = off`,
  `SET LOCAL max_parallel_workers_per_gather = 0`,
  `SET LOCAL application_name = '${STREAM_READER_NAME}'`,
].join('; ');

export interface CopyOutOptions {
  /** The data tables the COPY reads: locked before the snapshot is taken (see read-lock.ts). */
  tables: string[];
  /** Work in the COPY's transaction before it starts (its failure rejects like the COPY's own). */
  prepare?(sql: Sql): Promise<void>;
  /**
   * Work in the COPY's snapshot while the COPY runs, on a second connection (PostgreSQL runs both
   * at once); `transform` is given its promise. When no second connection is free at once, it runs
   * before the COPY instead, like `prepare`.
   */
  beside?(sql: Sql): Promise<void>;
  /** Called once Postgres has started answering, before the first byte goes out. */
  onStart(): void;
  /**
   * Whose read this is (a user's id): one reader has at most READS_PER_READER running at once
   * over all app processes, the rest answer 429.
   */
  reader?: string;
  /** Written before the rows (e.g. a CSV header). */
  prefix?: string;
  /**
   * Turns the COPY's bytes into the answer's; a function is called after `prepare`, which may shape
   * it, with the promise of `beside`'s work (settled already when it ran before the COPY).
   */
  transform?: Duplex | ((beside: Promise<void>) => Duplex);
}

/**
 * Reads (downloads, stream links, OData pages) one account may have running at once. Each can
 * keep a server process sorting or scanning for as long as its limit allows, and an account could
 * otherwise start them faster than they end; a BI tool refreshing a few tables at once stays under it.
 */
export const READS_PER_READER = 6;

export const TOO_MANY_READS = `At most ${READS_PER_READER} downloads, stream links and OData pages run at a time for one account: wait for one to finish`;

/** How long a download waits for a second connection before doing that work on its own one. */
const SECOND_CONNECTION_WAIT_MS = 1_000;
/**
 * How long the work beside a COPY waits for a table lock. A DDL statement that queued between the
 * COPY's lock and this one waits on the COPY, which waits on this work: no lock cycle PostgreSQL
 * would see, so the download fails after this instead of holding the table.
 */
const BESIDE_LOCK_WAIT_MS = 5_000;

/** A pooled connection if one comes within `waitMs`; one that comes later goes straight back. */
async function connectWithin(pool: Pool, waitMs: number): Promise<PoolClient | undefined> {
  const connecting = pool.connect();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, waitMs, undefined);
  });
  const client = await Promise.race([connecting.catch(() => undefined), late]);
  clearTimeout(timer);
  if (!client)
    void connecting.then(
      (arrived) => arrived.release(),
      () => undefined,
    );
  return client;
}

/**
 * Runs `work` on `second` in the snapshot of `copying`'s transaction (exported from it, so both
 * see the same rows), with the stream's settings and limit; `second` goes back to the pool after.
 * Its failure rejects the promise answered (observed, so it is never unhandled).
 */
function besideInSnapshot(
  copying: PoolClient,
  second: PoolClient,
  work: (sql: Sql) => Promise<void>,
  server: { backend?: number },
): Promise<void> {
  const done = (async () => {
    let clean = false;
    const limit = localStatementLimit(second, LONG_WORK_LIMITS_MS.stream);
    try {
      // Queued on the COPY's connection before the COPY itself.
      const { rows } = await copying.query<{ snapshot: string }>('SELECT pg_export_snapshot() AS snapshot');
      const snapshot = rows[0].snapshot.replace(/'/g, "''");
      const opened = await second.query(
        `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET TRANSACTION SNAPSHOT '${snapshot}'; ${STREAM_SETTINGS}; ${limit.sql}; SET LOCAL lock_timeout = ${BESIDE_LOCK_WAIT_MS}; ${SERVER_BACKEND_SQL}`,
      );
      server.backend = serverBackendOf(opened);
      await work(sqlOn(second));
      await second.query('COMMIT');
      clean = true;
    } finally {
      limit.restore();
      second.release(clean ? undefined : new Error('Connection left in a failed snapshot read'));
    }
  })();
  done.catch(() => undefined);
  return done;
}

/**
 * A way to stop work on `connection` that has not settled yet: its statement is cancelled (an
 * aggregate writes nothing until it ends, so a closed socket alone would not stop it), then the
 * connection is closed.
 */
function stopUnsettled(
  pool: Pool,
  connection: PoolClient,
  work: Promise<void>,
  server: { backend?: number },
): () => void {
  let settled = false;
  work.then(
    () => (settled = true),
    () => (settled = true),
  );
  return () => {
    if (settled) return;
    void cancelServerBackend(pool, server.backend).finally(() =>
      (connection as unknown as { connection?: { stream?: Socket } }).connection?.stream?.destroy(),
    );
  };
}

function isClientGone(error: unknown): boolean {
  return (error as { code?: string })?.code === 'ERR_STREAM_PREMATURE_CLOSE';
}

/**
 * Runs `COPY ... TO STDOUT` on its own pooled connection and pipes the bytes to `destination`
 * with back-pressure, so memory stays flat whatever the table size. A failure before the first
 * byte rejects (the error filter answers it); a client that hangs up ends the query quietly.
 */
export async function copyOut(
  pool: Pool,
  copySql: string,
  destination: Writable,
  options: CopyOutOptions,
): Promise<void> {
  const client = await pool.connect();
  let clean = false;
  /** Stops work beside the COPY that is still running when the COPY ends early (a client that hung up). */
  let stopBeside = () => undefined as void;
  let rows: CopyToStreamQuery | undefined;
  /** The server process running the COPY: ended by a cancel when the read ends early. */
  let backend: number | undefined;
  try {
    const ordinaryAnswerMs = answerLimitMs(client);
    // The COPY lasts as long as the client takes to read it: a limit of its own, not the pool's,
    // set for this transaction only. One round trip for all: the statements carry no parameters.
    const limit = localStatementLimit(client, LONG_WORK_LIMITS_MS.stream);
    try {
      // Repeatable read: what `prepare` learns about the rows (their count, their digits) holds for the COPY.
      const begun = await client.query(
        beginReading(
          'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
          options.tables,
          STREAM_SETTINGS,
          limit.sql,
          SERVER_BACKEND_SQL,
        ),
      );
      backend = serverBackendOf(begun as unknown as QueryResult[]);
      if (options.reader !== undefined && !(await claimReaderPlace(client, options.reader))) {
        await client.query('ROLLBACK');
        clean = true;
        throw new TooManyRequestsException(TOO_MANY_READS, 2);
      }
    } catch (error) {
      limit.restore();
      throw error;
    }
    // A second connection for `beside`, if one is free now: waiting on the pool here could wait on
    // downloads that each hold one connection and wait for a second.
    const second = options.beside ? await connectWithin(pool, SECOND_CONNECTION_WAIT_MS) : undefined;
    let beside = Promise.resolve();
    if (second) {
      const server: { backend?: number } = {};
      beside = besideInSnapshot(client, second, options.beside!, server);
      stopBeside = stopUnsettled(pool, second, beside, server);
    }
    if (options.prepare || (options.beside && !second)) {
      try {
        await options.prepare?.(sqlOn(client));
        if (!second) await options.beside?.(sqlOn(client));
      } catch (error) {
        // A refusal (e.g. too many rows for a sheet) leaves the connection fit for the pool.
        await client.query('ROLLBACK');
        limit.restore();
        clean = true;
        throw error;
      }
    }
    const transform = typeof options.transform === 'function' ? options.transform(beside) : options.transform;
    rows = client.query(copyTo(copySql));
    // Waits for the first data (or the end) so an error in the query can still become a JSON answer;
    // the first answer is due as soon as any statement's.
    await firstAnswer(rows, ordinaryAnswerMs);
    options.onStart();
    if (options.prefix) destination.write(options.prefix);
    const stalled = cutWhenStalled(
      (destination as { socket?: Socket | null }).socket,
      STALLED_CLIENT.limitMs,
    );
    try {
      if (transform) await pipeline(rows, transform, destination);
      else await pipeline(rows, destination);
    } catch (error) {
      if (stalled.cut())
        logger.warn(`A stream was cut: its client took nothing for ${STALLED_CLIENT.limitMs / 1000} s`);
      if (isClientGone(error)) return;
      throw error;
    } finally {
      stalled.stop();
    }
    // The snapshot is the COPY transaction's: it must outlive the work beside it.
    await beside;
    await client.query('COMMIT');
    limit.restore();
    clean = true;
  } finally {
    if (!clean) {
      stopBeside();
      // A COPY that has not written yet (sorting a large table, say) would otherwise run on to
      // its own limit after its answer gave up: the closing connection stops it at its next write only.
      void cancelServerBackend(pool, backend);
    }
    if (rows) settleAnswerTimer(rows);
    if (clean) client.release();
    else discard(client, rows);
  }
}

/**
 * One of the reader's READS_PER_READER places, as a transaction-level advisory lock on the COPY's
 * own connection: held exactly as long as the read can run, given back by the server when its
 * transaction or connection ends. `LIMIT 1` stops at the first place taken.
 */
async function claimReaderPlace(client: PoolClient, reader: string): Promise<boolean> {
  const { rows } = await client.query<{ place: number | null }>(
    `SELECT (SELECT place FROM pg_catalog.generate_series(1, $2::int) AS place
              WHERE pg_catalog.pg_try_advisory_xact_lock(pg_catalog.hashtext('read of a reader'),
                                                         pg_catalog.hashtext($1 || '/' || place))
              LIMIT 1) AS place`,
    [reader, READS_PER_READER],
  );
  return rows[0].place !== null;
}

/**
 * pg clears a query's answer timer when the query calls back, which a COPY TO stream never does:
 * without this the timer would outlive the stream and fail it long after it ended.
 */
export function settleAnswerTimer(rows: CopyToStreamQuery): void {
  (rows as unknown as { callback?: () => void }).callback?.();
}

/** Resolves when the COPY has something to read; rejects like any unanswered query after `limitMs`. */
async function firstAnswer(rows: CopyToStreamQuery, limitMs: number | undefined): Promise<void> {
  if (!limitMs) {
    await once(rows, 'readable');
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      once(rows, 'readable'),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('Query read timeout')), limitMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Drops a connection whose COPY was cut short. Closing the socket makes the server abort the
 * query at its next write instead of blocking on a reader that went away.
 */
function discard(client: PoolClient, rows: CopyToStreamQuery | undefined): void {
  // The closing connection fails the COPY once more; nobody is left to hear it.
  rows?.on('error', () => undefined);
  client.release(new Error('Stream connection discarded'));
  (client as unknown as { connection?: { stream?: Socket } }).connection?.stream?.destroy();
}
