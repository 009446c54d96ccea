import { normaliseLicence } from '../../common/licences';
import { Logger } from '@nestjs/common';
import type { Client } from 'pg';
import type { GrantsService } from '../../access/grants.service';
import { Sql, sqlOn } from '../../database/sql';
import type { CsvDialect } from '../../formats/readers/csv-dialect';
import type { AssetColumn } from '../entities/asset.entity';
import type { LoadMode } from '../entities/dataset-version.entity';

/** What describes a new dataset besides its rows. */
export interface NewAssetDetails {
  ownerId: string;
  title: string;
  description: string;
  category: string;
  keywords: string[];
  /** Decimal string with at most two decimals. */
  price: string;
  isPublic: boolean;
  source: string;
  author: string;
  image?: string | null;
  licence?: string;
  /**
   * The platform's own content (the demo seed) takes its title's plain table name; a user's item
   * gets the title with digits of its own id, which says nothing of other tenants' titles.
   */
  plainReadableName?: boolean;
}

export interface StagedTable {
  assetId: string;
  tableName: string;
  columns: AssetColumn[];
  rowCount: number;
  /** Bytes of the uploaded file. */
  byteCount: number;
  /** How the file was read; kept with a new dataset for its refreshes. */
  dialect: CsvDialect;
}

/**
 * A fully loaded dataset table inside a still open transaction. `publish` adds the catalogue row
 * and the owner's access and commits all of it at once; `discard` rolls everything back. Until
 * one of them runs nobody else can see the table, and a crash leaves nothing behind.
 */
export class StagedUpload {
  private readonly logger = new Logger(StagedUpload.name);
  private settled = false;

  constructor(
    private readonly client: Client,
    readonly table: StagedTable,
    private readonly grants: GrantsService,
  ) {}

  async publish(details: NewAssetDetails): Promise<string> {
    const { assetId, tableName, columns, rowCount, byteCount, dialect } = this.table;
    return this.commitWith(async (sql) => {
      await insertNewDataset(sql, {
        assetId,
        details,
        table: { tableName, columns, rowCount, byteCount },
        csvDialect: dialect,
      });
      await this.grants.grantOwnerAccess(sql, details.ownerId, assetId);
      return assetId;
    });
  }

  /**
   * Runs `work` in the staged table's transaction and commits everything at once; on any error
   * rolls all of it back. Either way the connection is closed: the upload is settled.
   */
  async commitWith<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    if (this.settled) throw new Error('This upload was already published or discarded');
    this.settled = true;
    try {
      const result = await work(sqlOn(this.client));
      await this.client.query('COMMIT');
      return result;
    } catch (error) {
      await this.client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      await this.client.end().catch(() => undefined);
    }
  }

  /** Rolls the table back; safe to call any number of times and after publish. */
  async discard(): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    try {
      await this.client.query('ROLLBACK');
    } catch (error) {
      this.logger.warn(`Rollback of staged table ${this.table.tableName} failed: ${String(error)}`);
    } finally {
      await this.client.end().catch(() => undefined);
    }
  }
}

/**
 * The catalogue row of a new dataset whose table is already loaded (an upload or a live product's
 * first rows) and its first version, inside the load's own transaction.
 */
export async function insertNewDataset(
  sql: Sql,
  dataset: {
    assetId: string;
    details: NewAssetDetails;
    table: { tableName: string; columns: AssetColumn[]; rowCount: number; byteCount: number };
    /** How an uploaded file was read (refresh reads the next file the same way). */
    csvDialect?: CsvDialect;
    dictionary?: Record<string, string>;
  },
): Promise<void> {
  const { assetId, details, table } = dataset;
  await sql(
    `INSERT INTO assets (id, owner_id, title, description, category, keywords, price, is_public, image,
                         source, author, table_name, row_count, columns, licence, byte_count, csv_dialect,
                         dictionary, readable_name)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)`,
    [
      assetId,
      details.ownerId,
      details.title,
      details.description,
      details.category,
      details.keywords,
      details.price,
      details.isPublic,
      details.image ?? null,
      details.source,
      details.author,
      table.tableName,
      table.rowCount,
      JSON.stringify(table.columns),
      normaliseLicence(details.licence ?? ''),
      table.byteCount,
      dataset.csvDialect ? JSON.stringify(dataset.csvDialect) : null,
      JSON.stringify(dataset.dictionary ?? {}),
      details.plainReadableName ? details.title : null,
    ],
  );
  await recordVersion(sql, {
    assetId,
    loadedBy: details.ownerId,
    mode: 'initial',
    rowCount: table.rowCount,
    byteCount: table.byteCount,
  });
}

/** Keeps one load in the dataset's version history (inside the load's own transaction). */
export async function recordVersion(
  sql: Sql,
  version: { assetId: string; loadedBy: string | null; mode: LoadMode; rowCount: number; byteCount: number },
): Promise<void> {
  await sql(
    `INSERT INTO dataset_versions (asset_id, loaded_by, mode, row_count, byte_count) VALUES ($1, $2, $3, $4, $5)`,
    [version.assetId, version.loadedBy, version.mode, version.rowCount, version.byteCount],
  );
}
