import { Logger } from '@nestjs/common';
import type { Client } from 'pg';
import type { GrantsService } from '../../access/grants.service';
import { sqlOn } from '../../database/sql';
import type { AssetColumn } from '../entities/asset.entity';

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
}

export interface StagedTable {
  assetId: string;
  tableName: string;
  columns: AssetColumn[];
  rowCount: number;
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
    if (this.settled) throw new Error('This upload was already published or discarded');
    this.settled = true;
    const { assetId, tableName, columns, rowCount } = this.table;
    try {
      await this.client.query(
        `INSERT INTO assets (id, owner_id, title, description, category, keywords, price, is_public, image,
                             source, author, table_name, row_count, columns)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
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
          tableName,
          rowCount,
          JSON.stringify(columns),
        ],
      );
      await this.grants.grantOwnerAccess(sqlOn(this.client), details.ownerId, assetId);
      await this.client.query('COMMIT');
      return assetId;
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
