import { HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export interface RateLimitRule {
  /** Maximum hits allowed inside one window. */
  limit: number;
  windowSeconds: number;
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
    const [row] = await this.dataSource.query(
      `INSERT INTO rate_limit_buckets AS bucket (key, window_start, hits)
       VALUES ($1, now(), 1)
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN bucket.window_start < now() - make_interval(secs => $2) THEN 1 ELSE bucket.hits + 1 END,
         window_start = CASE WHEN bucket.window_start < now() - make_interval(secs => $2) THEN now() ELSE bucket.window_start END
       RETURNING hits`,
      [key, rule.windowSeconds],
    );
    return Number(row.hits);
  }

  /** Hits of the current window without counting one. */
  async peek(key: string, rule: RateLimitRule): Promise<number> {
    const [row] = await this.dataSource.query(
      `SELECT hits FROM rate_limit_buckets WHERE key = $1 AND window_start >= now() - make_interval(secs => $2)`,
      [key, rule.windowSeconds],
    );
    return row ? Number(row.hits) : 0;
  }

  async reset(key: string): Promise<void> {
    await this.dataSource.query('DELETE FROM rate_limit_buckets WHERE key = $1', [key]);
  }

  /** Counts a hit and throws 429 once the window's limit is passed. */
  async consume(
    key: string,
    rule: RateLimitRule,
    message = 'Too many requests, please try again later',
  ): Promise<void> {
    const hits = await this.hit(key, rule);
    if (hits > rule.limit) throw new HttpException(message, HttpStatus.TOO_MANY_REQUESTS);
  }
}
