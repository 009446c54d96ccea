import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Fixed-window counters shared by every app process (login failures, likes, stream calls). */
@Entity({ name: 'rate_limit_buckets' })
export class RateLimitBucket {
  @PrimaryColumn({ type: 'text' })
  key: string;

  @Column({ name: 'window_start', type: 'timestamptz' })
  windowStart: Date;

  @Column({ type: 'integer' })
  hits: number;
}
