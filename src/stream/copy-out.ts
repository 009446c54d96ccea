import { once } from 'node:events';
import type { Socket } from 'node:net';
import type { Duplex, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Pool, PoolClient } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { CopyToStreamQuery } from 'pg-copy-streams';
import { answerLimitMs, LONG_WORK_LIMITS_MS, localStatementLimit, Sql, sqlOn } from '../database/sql';

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
].join('; ');

export interface CopyOutOptions {
  /** Work in the COPY's transaction before it starts (its failure rejects like the COPY's own). */
  prepare?(sql: Sql): Promise<void>;
  /** Called once Postgres has started answering, before the first byte goes out. */
  onStart(): void;
  /** Written before the rows (e.g. a CSV header). */
  prefix?: string;
  /** Turns the COPY's bytes into the answer's; a function is called after `prepare`, which may shape it. */
  transform?: Duplex | (() => Duplex);
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
  let rows: CopyToStreamQuery | undefined;
  try {
    const ordinaryAnswerMs = answerLimitMs(client);
    // The COPY lasts as long as the client takes to read it: a limit of its own, not the pool's,
    // set for this transaction only. One round trip for all: the statements carry no parameters.
    const limit = localStatementLimit(client, LONG_WORK_LIMITS_MS.stream);
    try {
      // Repeatable read: what `prepare` learns about the rows (their count, their digits) holds for the COPY.
      await client.query(`BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; ${STREAM_SETTINGS}; ${limit.sql}`);
    } catch (error) {
      limit.restore();
      throw error;
    }
    if (options.prepare) {
      try {
        await options.prepare(sqlOn(client));
      } catch (error) {
        // A refusal (e.g. too many rows for a sheet) leaves the connection fit for the pool.
        await client.query('ROLLBACK');
        limit.restore();
        clean = true;
        throw error;
      }
    }
    const transform = typeof options.transform === 'function' ? options.transform() : options.transform;
    rows = client.query(copyTo(copySql));
    // Waits for the first data (or the end) so an error in the query can still become a JSON answer;
    // the first answer is due as soon as any statement's.
    await firstAnswer(rows, ordinaryAnswerMs);
    options.onStart();
    if (options.prefix) destination.write(options.prefix);
    try {
      if (transform) await pipeline(rows, transform, destination);
      else await pipeline(rows, destination);
    } catch (error) {
      if (isClientGone(error)) return;
      throw error;
    }
    await client.query('COMMIT');
    limit.restore();
    clean = true;
  } finally {
    if (rows) settleAnswerTimer(rows);
    if (clean) client.release();
    else discard(client, rows);
  }
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
