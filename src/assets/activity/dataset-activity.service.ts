import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** How often the counts of this process go to the database. */
export const ACTIVITY_FLUSH_MS = 5_000;

interface Pending {
  assetId: string;
  day: string;
  gridViews: number;
  streamRequests: number;
}

/**
 * Counts grid views and stream requests per dataset and day without touching the database on the
 * request's path: each request adds to an in-memory tally, and every few seconds the tally is
 * added to `dataset_daily_activity` with one upsert. Each process keeps its own tally, so any
 * number of processes add up correctly; a process that dies loses at most its last few seconds.
 */
@Injectable()
export class DatasetActivityService implements OnModuleDestroy {
  private readonly logger = new Logger(DatasetActivityService.name);
  private pending = new Map<string, Pending>();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly dataSource: DataSource) {
    this.timer = setInterval(() => void this.flush(), ACTIVITY_FLUSH_MS);
    this.timer.unref();
  }

  countGridView(assetId: string): void {
    this.tally(assetId).gridViews += 1;
  }

  countStreamRequest(assetId: string): void {
    this.tally(assetId).streamRequests += 1;
  }

  /** Adds everything counted so far to the daily table (one statement); safe to call any time. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private tally(assetId: string): Pending {
    const day = new Date().toISOString().slice(0, 10);
    const key = `${assetId}|${day}`;
    let entry = this.pending.get(key);
    if (!entry) {
      entry = { assetId, day, gridViews: 0, streamRequests: 0 };
      this.pending.set(key, entry);
    }
    return entry;
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    try {
      // Joined to assets: a dataset deleted since its counts were taken drops out instead of
      // failing the whole batch on the foreign key.
      await this.dataSource.query(
        `INSERT INTO dataset_daily_activity (asset_id, day, grid_views, stream_requests)
         SELECT counted.asset_id, counted.day, counted.grid_views, counted.stream_requests
           FROM unnest($1::uuid[], $2::date[], $3::int[], $4::int[])
                AS counted (asset_id, day, grid_views, stream_requests)
           JOIN assets ON assets.id = counted.asset_id
         ON CONFLICT (asset_id, day) DO UPDATE SET
           grid_views = dataset_daily_activity.grid_views + EXCLUDED.grid_views,
           stream_requests = dataset_daily_activity.stream_requests + EXCLUDED.stream_requests`,
        [
          batch.map((entry) => entry.assetId),
          batch.map((entry) => entry.day),
          batch.map((entry) => entry.gridViews),
          batch.map((entry) => entry.streamRequests),
        ],
      );
    } catch (error) {
      // Usage counts are worth less than the requests they describe: log, never throw at a caller.
      this.logger.warn(`Could not store ${batch.length} activity counts: ${String(error)}`);
    }
  }
}
