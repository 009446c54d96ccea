import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { LiveRunView, LiveView } from '../assets/live-view';
import type { RefreshOutcome } from './entities/live-product-run.entity';
import { graceMinutes } from './product-freshness';
import type { SchemaChange } from './schema-change';

/** Refreshes a listing shows. */
const RUNS_SHOWN = 10;

interface ProductRow {
  instance_id: string;
  refresh_interval: number;
  last_run_started_at: Date | null;
  last_refreshed_at: Date;
  stale_since: Date | null;
  new_columns: string[];
  pending_change: SchemaChange | null;
  pending_detected_at: Date | null;
}

/**
 * The `live` part of a listing. Subscribers read the schedule and the outcomes; the run errors,
 * the held change and the connection are the owner's alone (errors may carry URLs and tokens).
 */
@Injectable()
export class LiveViews {
  constructor(private readonly dataSource: DataSource) {}

  async describe(assetId: string, owner: boolean): Promise<LiveView | null> {
    const [product]: ProductRow[] = await this.dataSource.query(
      `SELECT product.instance_id, instance.refresh_interval, instance.last_run_started_at,
              product.last_refreshed_at, product.stale_since, product.new_columns,
              product.pending_change, product.pending_detected_at
         FROM live_products product JOIN connector_instances instance ON instance.id = product.instance_id
        WHERE product.asset_id = $1`,
      [assetId],
    );
    if (!product) return null;
    const runs: Array<{
      finished_at: Date;
      outcome: RefreshOutcome;
      row_count: string;
      error: string | null;
    }> = await this.dataSource.query(
      `SELECT finished_at, outcome, row_count, error FROM live_product_runs
          WHERE asset_id = $1 ORDER BY finished_at DESC, id LIMIT ${RUNS_SHOWN}`,
      [assetId],
    );
    const interval = product.refresh_interval;
    const lastStart = product.last_run_started_at ?? product.last_refreshed_at;
    const view: LiveView = {
      interval_minutes: interval,
      grace_minutes: graceMinutes(interval),
      last_refreshed_at: product.last_refreshed_at.toISOString(),
      next_refresh_at: interval > 0 ? new Date(lastStart.getTime() + interval * 60_000).toISOString() : null,
      stale_since: product.stale_since?.toISOString() ?? null,
      runs: runs.map((run) => {
        const shown: LiveRunView = {
          finished_at: run.finished_at.toISOString(),
          outcome: run.outcome,
          row_count: Number(run.row_count),
        };
        if (owner) shown.error = run.error;
        return shown;
      }),
      new_columns: product.new_columns,
    };
    if (!owner) return view;
    return {
      ...view,
      instance_id: product.instance_id,
      pending_schema_change:
        product.pending_change && product.pending_detected_at
          ? { detected_at: product.pending_detected_at.toISOString(), ...product.pending_change }
          : null,
    };
  }
}
