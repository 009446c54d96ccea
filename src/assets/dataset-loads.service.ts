import { Injectable } from '@nestjs/common';
import { GrantsService } from '../access/grants.service';
import { swapTable } from '../database/data-tables/data-table-ddl';
import { dataTable } from '../database/data-tables/data-table-names';
import type { Sql } from '../database/sql';
import type { AssetColumn } from './entities/asset.entity';
import { ColumnProfileService } from './ingest/column-profile.service';
import { insertNewDataset, NewAssetDetails, recordVersion } from './ingest/staged-upload';

/** A dataset table filled elsewhere (a live product's refresh), ready to become a dataset's rows. */
export interface LoadedTable {
  tableName: string;
  columns: AssetColumn[];
  rowCount: number;
}

/**
 * Datasets whose rows are loaded by other modules (live products) rather than uploads: a new
 * dataset from a loaded table, and a loaded table swapped in as a new version. Each runs inside
 * the caller's transaction, so the catalogue row, the version and the rows commit together.
 */
@Injectable()
export class DatasetLoadsService {
  constructor(
    private readonly grants: GrantsService,
    private readonly profiles: ColumnProfileService,
  ) {}

  /** A new dataset (its table already named after `assetId`), its first version and its owner's access. */
  async create(
    sql: Sql,
    assetId: string,
    details: NewAssetDetails & { dictionary: Record<string, string> },
    loaded: LoadedTable,
  ): Promise<void> {
    const byteCount = await this.tableBytes(sql, loaded.tableName);
    await insertNewDataset(sql, {
      assetId,
      details,
      table: { ...loaded, byteCount },
      dictionary: details.dictionary,
    });
    await this.grants.grantOwnerAccess(sql, details.ownerId, assetId);
  }

  /**
   * Puts `loaded` in the place of the dataset's rows (a version of mode replace). Readers see the
   * old rows until the caller's transaction commits, then the new ones; call `loaded()` after it.
   */
  async replace(
    sql: Sql,
    asset: { id: string; tableName: string; ownerId: string | null },
    loaded: LoadedTable,
  ): Promise<void> {
    const byteCount = await this.tableBytes(sql, loaded.tableName);
    await this.profiles.stopReading(sql, asset.tableName);
    await swapTable(sql, loaded.tableName, asset.tableName);
    await sql(
      `UPDATE assets SET row_count = $2, byte_count = $3, columns = $4, data_updated_at = now(), updated_at = now()
        WHERE id = $1`,
      [asset.id, loaded.rowCount, byteCount, JSON.stringify(loaded.columns)],
    );
    await recordVersion(sql, {
      assetId: asset.id,
      loadedBy: asset.ownerId,
      mode: 'replace',
      rowCount: loaded.rowCount,
      byteCount,
    });
  }

  /** After the commit of create or replace: the new rows get their indexes and column profile. */
  loaded(assetId: string): void {
    this.profiles.schedule(assetId);
  }

  /**
   * The bytes of the rows as stored. Not the table's size on disk: that grows by whole 8 KB pages
   * and reads the same for 2 rows or 200. The copy just read every row, so this pass is cheap.
   */
  private async tableBytes(sql: Sql, tableName: string): Promise<number> {
    const { rows } = await sql<{ bytes: string }>(
      `SELECT coalesce(sum(pg_column_size(loaded.*)), 0)::bigint AS bytes FROM ${dataTable(tableName)} loaded`,
    );
    return Number(rows[0].bytes);
  }
}
