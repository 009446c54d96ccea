import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { sqlOn } from '../database/sql';
import { NotificationsService } from '../notifications/notifications.service';
import { STALE_AT_SQL } from './product-freshness';
import { ProductRefreshService } from './product-refresh.service';

const INTERVAL_NAME = 'live-product-freshness';

/**
 * Marks live products stale once their last good refresh is older than the interval plus the
 * grace, and tells holders and owner once per incident (the recovery notice comes with the next
 * good refresh). Ticks where runs run (role all or worker), with the connector scheduler's period.
 */
@Injectable()
export class ProductFreshnessService implements OnApplicationBootstrap {
  private readonly logger = new Logger(ProductFreshnessService.name);
  private ticking = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly notifications: NotificationsService,
    private readonly refreshes: ProductRefreshService,
    private readonly registry: SchedulerRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.schedulerEnabled) return;
    const interval = setInterval(() => void this.tick(), this.config.schedulerTickSeconds * 1000);
    interval.unref();
    this.registry.addInterval(INTERVAL_NAME, interval);
  }

  /** One pass; answers the products it found newly stale. */
  async tick(): Promise<string[]> {
    if (this.ticking) return [];
    this.ticking = true;
    try {
      await this.catchUp();
      const overdue: Array<{ asset_id: string }> = await this.dataSource.query(
        `SELECT product.asset_id FROM live_products product
           JOIN connector_instances instance ON instance.id = product.instance_id
          WHERE product.stale_since IS NULL AND ${STALE_AT_SQL} <= now()`,
      );
      const marked: string[] = [];
      for (const { asset_id } of overdue) if (await this.markStale(asset_id)) marked.push(asset_id);
      return marked;
    } catch (error) {
      this.logger.error(`Freshness check failed: ${String(error)}`);
      return [];
    } finally {
      this.ticking = false;
    }
  }

  /**
   * Applies the latest finished run of each product's connection that no refresh has counted: the
   * process that ran it may have stopped between recording the run and loading it. Older missed
   * runs need nothing: the latest one's table holds their rows too.
   */
  private async catchUp(): Promise<void> {
    const missed: Array<{ asset_id: string; run_id: string }> = await this.dataSource.query(
      `SELECT product.asset_id, latest.id AS run_id
         FROM live_products product
         JOIN LATERAL (SELECT run.id FROM connector_runs run
                        WHERE run.instance_id = product.instance_id AND run.status <> 'running'
                          AND run.finished_at > product.created_at
                        ORDER BY run.finished_at DESC LIMIT 1) latest ON true
        WHERE NOT EXISTS (SELECT 1 FROM live_product_runs counted
                           WHERE counted.asset_id = product.asset_id AND counted.run_id = latest.id)`,
    );
    for (const { asset_id, run_id } of missed) await this.refreshes.refresh(asset_id, run_id);
  }

  /** Stale since the moment it became overdue; the condition is checked again under the row lock, so each incident is told once. */
  private async markStale(assetId: string): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const sql = sqlOn(manager);
      const { rows } = await sql<{
        stale_since: Date;
        title: string;
        owner_id: string | null;
        error: string | null;
      }>(
        `WITH stale AS (
           UPDATE live_products product SET stale_since = ${STALE_AT_SQL}
             FROM connector_instances instance
            WHERE instance.id = product.instance_id AND product.asset_id = $1
              AND product.stale_since IS NULL AND ${STALE_AT_SQL} <= now()
           RETURNING product.asset_id, product.stale_since)
         SELECT stale.stale_since, asset.title, asset.owner_id,
                (SELECT run.error FROM live_product_runs run
                  WHERE run.asset_id = stale.asset_id ORDER BY run.finished_at DESC LIMIT 1) AS error
           FROM stale JOIN assets asset ON asset.id = stale.asset_id`,
        [assetId],
      );
      const stale = rows[0];
      if (!stale) return false;
      await this.notifications.productStale(
        sql,
        { id: assetId, title: stale.title, ownerId: stale.owner_id },
        stale.stale_since,
        stale.error,
      );
      return true;
    });
  }
}
