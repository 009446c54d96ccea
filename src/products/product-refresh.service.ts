import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DatasetLoadsService } from '../assets/dataset-loads.service';
import type { AssetColumn } from '../assets/entities/asset.entity';
import type { RunOperationOutcome } from '../connectors/entities/connector-run.entity';
import { ConnectorLifecycle } from '../connectors/runs/run-end-listeners';
import { stagingTableName } from '../database/data-tables/data-table-names';
import { LONG_WORK_LIMITS_MS, pgPool, Sql, sqlOn, transactionOn } from '../database/sql';
import { NotificationsService } from '../notifications/notifications.service';
import type { RefreshOutcome } from './entities/live-product-run.entity';
import { copySourceTable, datasetColumns, runLeftRows, sourceColumns, sourceRowCount } from './product-table';
import { breaksPublishedColumns, describeSchemaChange, PublishedColumn, schemaChange } from './schema-change';

/** A live product with its dataset, as a refresh reads it (locked). */
export interface LockedProduct {
  asset_id: string;
  source_table: string;
  new_columns: string[];
  stale_since: Date | null;
  pending_change: unknown;
  title: string;
  owner_id: string | null;
  table_name: string;
  columns: AssetColumn[];
  row_count: string;
}

interface FinishedRun {
  status: 'running' | 'succeeded' | 'failed';
  error: string | null;
  operations: RunOperationOutcome[];
}

/** The product and its dataset, locked against other refreshes and the owner's changes; null once gone. */
export async function lockProduct(sql: Sql, assetId: string): Promise<LockedProduct | null> {
  const { rows } = await sql<LockedProduct>(
    `SELECT product.asset_id, product.source_table, product.new_columns, product.stale_since,
            product.pending_change, asset.title, asset.owner_id, asset.table_name, asset.columns,
            asset.row_count
       FROM live_products product JOIN assets asset ON asset.id = product.asset_id
      WHERE product.asset_id = $1
        FOR UPDATE OF product, asset`,
    [assetId],
  );
  return rows[0] ?? null;
}

/**
 * Turns each finished run of a published connection into the product's next version: the run's
 * table is copied into a new dataset table and swapped in, in one transaction, unless it would
 * drop or retype a published column (then the run is held for the owner). Failures keep the
 * last good data; the freshness check decides when that makes the product stale.
 */
@Injectable()
export class ProductRefreshService implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly lifecycle: ConnectorLifecycle,
    private readonly loads: DatasetLoadsService,
    private readonly notifications: NotificationsService,
  ) {}

  onModuleInit(): void {
    this.lifecycle.onRunEnded((run) => this.applyRun(run.runId, run.instanceId));
  }

  /** What the run means for each product of its instance. */
  async applyRun(runId: string, instanceId: string): Promise<void> {
    const products: Array<{ asset_id: string }> = await this.dataSource.query(
      `SELECT asset_id FROM live_products WHERE instance_id = $1 ORDER BY created_at`,
      [instanceId],
    );
    for (const product of products) await this.refresh(product.asset_id, runId);
  }

  /** One run for one product, counted once however often it is offered. */
  async refresh(assetId: string, runId: string): Promise<RefreshOutcome | null> {
    const outcome = await this.inTransaction(async (sql) => {
      const product = await lockProduct(sql, assetId);
      if (!product) return null;
      const { rows: counted } = await sql(
        `SELECT 1 FROM live_product_runs WHERE asset_id = $1 AND run_id = $2`,
        [assetId, runId],
      );
      if (counted.length > 0) return null;
      const { rows: runs } = await sql<FinishedRun>(
        `SELECT status, error, operations FROM connector_runs WHERE id = $1`,
        [runId],
      );
      const run = runs[0];
      if (!run || run.status === 'running') return null;
      const operation = run.operations.find(
        (candidate) => candidate.output_table_name === product.source_table,
      );
      const error = operation ? operation.error : run.status === 'failed' ? run.error : null;
      if (error) {
        await this.record(sql, product, runId, 'failed', Number(product.row_count), error);
        return 'failed';
      }
      const next = await sourceColumns(sql, product.source_table);
      const published: PublishedColumn[] = product.columns.map(({ name, type }) => ({ name, type }));
      const change = schemaChange(published, next);
      if (breaksPublishedColumns(change)) {
        await this.hold(sql, product, change);
        await this.record(sql, product, runId, 'schema_change', Number(product.row_count), null);
        return 'schema_change';
      }
      const changed =
        change.added.length > 0 ||
        (await runLeftRows(sql, product.source_table, runId)) ||
        (await sourceRowCount(sql, product.source_table)) !== Number(product.row_count);
      const rowCount = changed
        ? await this.loadVersion(sql, product, next, runId)
        : Number(product.row_count);
      const added = change.added.map((column) => column.name);
      await this.markFresh(sql, product, added);
      // Added columns are published with the run (nothing read so far changes): subscribers hear of them.
      if (added.length > 0) {
        const facts = { id: product.asset_id, title: product.title, ownerId: product.owner_id };
        await this.notifications.productColumnsAdded(sql, facts, added);
      }
      const result: RefreshOutcome = changed ? 'updated' : 'unchanged';
      await this.record(sql, product, runId, result, rowCount, null);
      return result;
    });
    if (outcome === 'updated') this.loads.loaded(assetId);
    return outcome;
  }

  /**
   * Copies the source table as it is now into a new dataset table and swaps it in as a version;
   * answers the rows it holds. Inside the caller's transaction.
   */
  async loadVersion(
    sql: Sql,
    product: LockedProduct,
    columns: PublishedColumn[],
    loadId: string,
  ): Promise<number> {
    const loaded = stagingTableName(product.table_name, loadId);
    const assetColumns = datasetColumns(columns);
    const rowCount = await copySourceTable(sql, product.source_table, loaded, assetColumns);
    await this.loads.replace(
      sql,
      { id: product.asset_id, tableName: product.table_name, ownerId: product.owner_id },
      { tableName: loaded, columns: assetColumns, rowCount },
    );
    return rowCount;
  }

  /** A good refresh: the freshness clock starts again, and a stale product's readers hear it recovered. */
  async markFresh(sql: Sql, product: LockedProduct, addedColumns: string[]): Promise<void> {
    await sql(
      `UPDATE live_products
          SET last_refreshed_at = now(), stale_since = NULL, pending_change = NULL, pending_detected_at = NULL,
              new_columns = ARRAY(SELECT DISTINCT unnest(new_columns || $2::text[]))
        WHERE asset_id = $1`,
      [product.asset_id, addedColumns],
    );
    const facts = { id: product.asset_id, title: product.title, ownerId: product.owner_id };
    if (product.stale_since) await this.notifications.productRecovered(sql, facts);
  }

  /** Keeps the published data and tells the owner, once per held change (not on every run). */
  private async hold(
    sql: Sql,
    product: LockedProduct,
    change: ReturnType<typeof schemaChange>,
  ): Promise<void> {
    const alreadyHeld = JSON.stringify(product.pending_change) === JSON.stringify(change);
    await sql(
      `UPDATE live_products SET pending_change = $2, pending_detected_at = coalesce(pending_detected_at, now())
        WHERE asset_id = $1`,
      [product.asset_id, JSON.stringify(change)],
    );
    if (!alreadyHeld)
      await this.notifications.productSchemaHeld(
        sql,
        { id: product.asset_id, title: product.title, ownerId: product.owner_id },
        describeSchemaChange(change),
      );
  }

  private async record(
    sql: Sql,
    product: LockedProduct,
    runId: string,
    outcome: RefreshOutcome,
    rowCount: number,
    error: string | null,
  ): Promise<void> {
    await sql(
      `INSERT INTO live_product_runs (asset_id, run_id, outcome, row_count, error) VALUES ($1, $2, $3, $4, $5)`,
      [product.asset_id, runId, outcome, rowCount, error],
    );
  }

  /**
   * Work on a pooled connection of its own, in one transaction: copying a large table takes
   * longer than the pool's ordinary statement limit.
   */
  async inTransaction<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    const client = await pgPool(this.dataSource).connect();
    try {
      return await transactionOn(client, () => work(sqlOn(client)), {
        statementLimitMs: LONG_WORK_LIMITS_MS.connectorWrite,
      });
    } finally {
      client.release();
    }
  }
}
