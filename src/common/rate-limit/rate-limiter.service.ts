import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
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

  private async hitWindow(key: string, rule: RateLimitRule, manager?: EntityManager): Promise<WindowState> {
    const [row] = await (manager ?? this.dataSource).query(
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
   * Counts one attempt on every key at once, before the work they guard: either all counters take
   * it, or (when one of them is already full) none does and a 429 names the longest wait. The
   * counters' rows stay locked until the decision is made, so parallel attempts queue up and
   * exactly `limit` of them get through.
   */
  async take(
    limits: ReadonlyArray<readonly [key: string, rule: RateLimitRule]>,
    message: string,
  ): Promise<void> {
    // One lock order for everyone, so two requests taking overlapping keys cannot deadlock.
    const ordered = [...limits].sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
    await this.dataSource.transaction(async (manager) => {
      const full: WindowState[] = [];
      for (const [key, rule] of ordered) {
        const window = await this.hitWindow(key, rule, manager);
        if (window.hits > rule.limit) full.push(window);
      }
      // Throwing rolls the hits back: a refused attempt is not counted.
      if (full.length > 0) {
        throw new TooManyRequestsException(message, Math.max(...full.map((window) => window.secondsLeft)));
      }
    });
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
