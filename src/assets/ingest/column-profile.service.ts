import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { dedicatedClient, LONG_WORK_LIMITS_MS, sqlOn } from '../../database/sql';
import type { AssetColumn } from '../entities/asset.entity';
import { profileTable } from './column-profile';

/**
 * Computes a dataset's column profile right after a load has committed, on a connection of its
 * own, so that an upload or a refresh answers at the speed of COPY (distinct counts over a
 * million rows take seconds). The profile describes one snapshot of the rows and is stored only
 * if no newer load has replaced them meanwhile.
 */
@Injectable()
export class ColumnProfileService implements OnModuleDestroy {
  private readonly logger = new Logger(ColumnProfileService.name);
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly dataSource: DataSource) {}

  /** Starts profiling the dataset's current rows; failures are logged, never thrown at the caller. */
  schedule(assetId: string): void {
    const work: Promise<void> = this.compute(assetId)
      .catch((error: unknown) => this.logger.warn(`Profile of dataset ${assetId} failed: ${String(error)}`))
      .finally(() => this.running.delete(work));
    this.running.add(work);
  }

  /** Resolves once every profile started so far is stored (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  async onModuleDestroy(): Promise<void> {
    await this.settled();
  }

  private async compute(assetId: string): Promise<void> {
    const client = dedicatedClient(this.dataSource, 'dataset-profile', {
      statementMs: LONG_WORK_LIMITS_MS.ingest,
    });
    client.on('error', () => undefined);
    await client.connect();
    try {
      // One snapshot for the catalogue row and the rows it describes.
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
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
      const profile = await profileTable(sqlOn(client), asset.table_name, asset.columns);
      await client.query('COMMIT');
      await client.query(
        `UPDATE assets SET profile = $2 WHERE id = $1 AND data_updated_at = $3::timestamptz`,
        [assetId, JSON.stringify(profile), asset.loaded_at],
      );
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}
