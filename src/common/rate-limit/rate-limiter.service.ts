import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RateLimitBucket } from '../entities/rate-limit-bucket.entity';
import { TooManyRequestsException } from './too-many-requests.exception';

export interface RateLimitRule {
  /** Maximum hits allowed inside one window. */
  limit: number;
  windowSeconds: number;
}

export interface WindowState {
  hits: number;
  /** Whole seconds until the window ends and the count starts again (at least 1 while counting). */
  secondsLeft: number;
}

/** The window length of the bucket's key, in take()'s statement (whose keys each have their own). */
const WANTED_WINDOW = `make_interval(secs => (SELECT window_seconds FROM wanted WHERE wanted.key = bucket.key))`;
/** Seconds left in a bucket's window, for a query whose second parameter is the window length. */
const SECONDS_LEFT = `greatest(1, ceil(extract(epoch FROM window_start + make_interval(secs => $2) - now())))::int`;

function toWindowState(row: { hits: string | number; seconds_left: number }): WindowState {
  return { hits: Number(row.hits), secondsLeft: Number(row.seconds_left) };
}

/**
 * Fixed-window counters in Postgres, so a limit holds across every app process. One upsert per
 * hit; the window restarts when the stored one has expired.
 */
@Injectable()
export class RateLimiterService {
  constructor(private readonly dataSource: DataSource) {}

  /** Counts a hit and answers how many hits the current window holds, this one included. */
  async hit(key: string, rule: RateLimitRule): Promise<number> {
    return (await this.hitWindow(key, rule)).hits;
  }

  /** Hits of the current window without counting one. */
  async peek(key: string, rule: RateLimitRule): Promise<number> {
    return (await this.peekWindow(key, rule)).hits;
  }

  /** Like peek, with the seconds until the window ends (for Retry-After). */
  async peekWindow(key: string, rule: RateLimitRule): Promise<WindowState> {
    const [row] = await this.dataSource.query(
      `SELECT hits, ${SECONDS_LEFT} AS seconds_left FROM rate_limit_buckets
        WHERE key = $1 AND window_start >= now() - make_interval(secs => $2)`,
      [key, rule.windowSeconds],
    );
    return row ? toWindowState(row) : { hits: 0, secondsLeft: 0 };
  }

  private async hitWindow(key: string, rule: RateLimitRule): Promise<WindowState> {
    const [row] = await this.dataSource.query(
      `INSERT INTO rate_limit_buckets AS bucket (key, window_start, hits)
       VALUES ($1, now(), 1)
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN bucket.window_start < now() - make_interval(secs => $2) THEN 1 ELSE bucket.hits + 1 END,
         window_start = CASE WHEN bucket.window_start < now() - make_interval(secs => $2) THEN now() ELSE bucket.window_start END
       RETURNING hits, ${SECONDS_LEFT} AS seconds_left`,
      [key, rule.windowSeconds],
    );
    return toWindowState(row);
  }

  /**
   * Counts one attempt on every key at once, before the work they guard, in a single statement:
   * no row stays locked between round trips, so a burst of attempts does not queue on the
   * counters (and then on the connection pool) however slow the machine. When a counter is past
   * its limit, the attempt is refused with a 429 naming the longest wait and taken back from every
   * counter it was counted on. Counts rise before anything is taken back, so exactly `limit`
   * parallel attempts get through; an attempt at the edge of one limit may be refused while a
   * concurrent attempt refused by another limit is being taken back, which errs on the safe side.
   */
  async take(
    limits: ReadonlyArray<readonly [key: string, rule: RateLimitRule]>,
    message: string,
  ): Promise<void> {
    // One lock order for everyone, so two requests taking overlapping keys cannot deadlock.
    const ordered = [...limits].sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
    const keys = ordered.map(([key]) => key);
    const windows = ordered.map(([, rule]) => rule.windowSeconds);
    const counted: Array<{ key: string; hits: number; seconds_left: number }> = await this.dataSource.query(
      `WITH wanted AS (SELECT * FROM unnest($1::text[], $2::int[]) AS wanted(key, window_seconds))
       INSERT INTO rate_limit_buckets AS bucket (key, window_start, hits)
       SELECT key, now(), 1 FROM wanted ORDER BY key
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN bucket.window_start < now() - ${WANTED_WINDOW} THEN 1 ELSE bucket.hits + 1 END,
         window_start = CASE WHEN bucket.window_start < now() - ${WANTED_WINDOW} THEN now() ELSE bucket.window_start END
       RETURNING key, hits,
         greatest(1, ceil(extract(epoch FROM window_start + ${WANTED_WINDOW} - now())))::int AS seconds_left`,
      [keys, windows],
    );
    const limitOf = new Map(ordered.map(([key, rule]) => [key, rule.limit]));
    const full = counted.filter((row) => Number(row.hits) > limitOf.get(row.key)!);
    if (full.length === 0) return;
    await this.dataSource.query(
      `WITH wanted AS (SELECT * FROM unnest($1::text[], $2::int[]) AS wanted(key, window_seconds)),
       locked AS (
         SELECT bucket.key FROM rate_limit_buckets bucket JOIN wanted USING (key)
          WHERE bucket.hits > 0 AND bucket.window_start >= now() - make_interval(secs => wanted.window_seconds)
          ORDER BY bucket.key FOR UPDATE OF bucket)
       UPDATE rate_limit_buckets bucket SET hits = bucket.hits - 1 FROM locked WHERE bucket.key = locked.key`,
      [keys, windows],
    );
    throw new TooManyRequestsException(message, Math.max(...full.map((row) => Number(row.seconds_left))));
  }

  /** Takes back one attempt counted by take() that turned out not to be a failure. */
  async giveBack(key: string, rule: RateLimitRule): Promise<void> {
    await this.dataSource.query(
      `UPDATE rate_limit_buckets SET hits = hits - 1
        WHERE key = $1 AND hits > 0 AND window_start >= now() - make_interval(secs => $2)`,
      [key, rule.windowSeconds],
    );
  }

  async reset(key: string): Promise<void> {
    await this.dataSource.getRepository(RateLimitBucket).delete({ key });
  }

  /** Counts a hit and throws 429 once the window's limit is passed. */
  async consume(
    key: string,
    rule: RateLimitRule,
    message = 'Too many requests, please try again later',
  ): Promise<void> {
    const window = await this.hitWindow(key, rule);
    if (window.hits > rule.limit) throw new TooManyRequestsException(message, window.secondsLeft);
  }
}
