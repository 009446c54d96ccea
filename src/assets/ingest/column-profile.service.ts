import { beginReading } from '../../database/data-tables/read-lock';
import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createColumnIndex } from '../../database/data-tables/data-table-ddl';
import { dataTable, ROW_ID_COLUMN } from '../../database/data-tables/data-table-names';
import { dedicatedClient, LONG_WORK_LIMITS_MS, Sql, sqlOn, transactionOn } from '../../database/sql';
import type { AssetColumn } from '../entities/asset.entity';
import { profileTable } from './column-profile';

/** The connections profiles run on, by name, so that any process can find them. */
export const PROFILE_APPLICATION_NAME = 'dataset-profile';
/** A profile still behind its rows this long after the load is taken as lost (a million rows take seconds). */
export const PROFILE_REPAIR_AFTER_MS = 5 * 60_000;

/** The stored profile describes older rows than the current ones (being computed, or lost). */
export function isProfilePending(asset: { dataUpdatedAt: Date; profiledAt: Date | null }): boolean {
  return asset.profiledAt === null || asset.profiledAt.getTime() < asset.dataUpdatedAt.getTime();
}

/** How a profile ended by stopReading fails: the server terminated its connection. */
const TERMINATED = '57P01';

/**
 * The work a load leaves for right after its commit, on a connection of its own, so that an
 * upload or a refresh answers at the speed of COPY: the index on the row id (grid pages, the
 * sample and OData pages read in file order; without it each such read sorts the whole table),
 * then the column profile (distinct counts over a million rows take seconds). The profile
 * describes one snapshot of the rows and is stored only if no newer load has replaced them
 * meanwhile.
 */
@Injectable()
export class ColumnProfileService implements OnModuleDestroy {
  private readonly logger = new Logger(ColumnProfileService.name);
  private readonly running = new Set<Promise<void>>();
  private readonly repairing = new Set<string>();

  constructor(private readonly dataSource: DataSource) {}

  /** Indexes and profiles the dataset's current rows; failures are logged, never thrown at the caller. */
  schedule(assetId: string, done?: () => void): void {
    const work: Promise<void> = this.compute(assetId)
      .catch((error: unknown) => {
        if ((error as { code?: unknown }).code === TERMINATED) {
          this.logger.log(`Profile of dataset ${assetId} stopped: its rows are being replaced`);
        } else this.logger.warn(`Profile of dataset ${assetId} failed: ${String(error)}`);
      })
      .finally(() => {
        this.running.delete(work);
        done?.();
      });
    this.running.add(work);
  }

  /**
   * Ends the profiles (of any process) still reading `tableName`, inside a replace that is about
   * to drop it: their figures describe rows that are going away, and their read lock would hold
   * the swap, and every reader queued behind it, for as long as a profile takes (seconds for a
   * million rows). Answers whether one was ended; the caller profiles the dataset again after
   * its commit, or after its failure.
   */
  async stopReading(sql: Sql, tableName: string): Promise<boolean> {
    const { rows } = await sql<{ ended: boolean }>(
      `SELECT pg_terminate_backend(activity.pid) AS ended
         FROM pg_stat_activity activity
        WHERE activity.application_name = $1 AND activity.datname = current_database()
          AND activity.pid <> pg_backend_pid()
          AND EXISTS (SELECT 1 FROM pg_locks held
                       WHERE held.pid = activity.pid AND held.relation = to_regclass($2))`,
      [PROFILE_APPLICATION_NAME, dataTable(tableName)],
    );
    return rows.some((row) => row.ended);
  }

  /**
   * For a dataset whose profile lags its rows for longer than a load's own profile takes (the
   * process that loaded it stopped before storing it): computes it again, once per process at a
   * time. Called when the dataset is shown, so a profile lost in a crash heals on its next view.
   */
  repairIfStale(asset: { id: string; dataUpdatedAt: Date; profiledAt: Date | null }): void {
    if (!isProfilePending(asset) || this.repairing.has(asset.id)) return;
    if (Date.now() - asset.dataUpdatedAt.getTime() < PROFILE_REPAIR_AFTER_MS) return;
    this.repairing.add(asset.id);
    this.logger.log(`Profile of dataset ${asset.id} lags its rows: computing it again`);
    this.schedule(asset.id, () => this.repairing.delete(asset.id));
  }

  /** Resolves once every profile started so far is stored (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  async onModuleDestroy(): Promise<void> {
    await this.settled();
  }

  private async compute(assetId: string): Promise<void> {
    const client = dedicatedClient(this.dataSource, PROFILE_APPLICATION_NAME, {
      statementMs: LONG_WORK_LIMITS_MS.ingest,
    });
    client.on('error', () => undefined);
    await client.connect();
    try {
      const { rows: tables } = await client.query<{ table_name: string }>(
        `SELECT table_name FROM assets WHERE id = $1`,
        [assetId],
      );
      if (tables.length === 0) return;
      // Built after the load's COPY, not before it: one sorted pass instead of an insert per row.
      // A refresh that swaps in a new table meanwhile gets its own index from its own job.
      const sql = sqlOn(client);
      await transactionOn(client, () => createColumnIndex(sql, tables[0].table_name, ROW_ID_COLUMN));
      // One snapshot for the catalogue row and the rows it describes, taken once the table is locked.
      await client.query(
        beginReading('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', [tables[0].table_name]),
      );
      const { rows } = await client.query<{
        table_name: string;
        columns: AssetColumn[];
        loaded_at: string;
        // As text: a JavaScript Date would drop the microseconds the comparison below needs.
      }>(`SELECT table_name, columns, data_updated_at::text AS loaded_at FROM assets WHERE id = $1`, [
        assetId,
      ]);
      if (rows.length === 0) return;
      const [asset] = rows;
      const profile = await profileTable(sql, asset.table_name, asset.columns);
      await client.query('COMMIT');
      await client.query(
        `UPDATE assets SET profile = $2, profiled_at = $3::timestamptz
          WHERE id = $1 AND data_updated_at = $3::timestamptz`,
        [assetId, JSON.stringify(profile), asset.loaded_at],
      );
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}
