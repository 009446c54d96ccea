import type { Readable } from 'node:stream';
import { BadRequestException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { accessSql, isUuid } from '../access/access-rules';
import { AccessService } from '../access/access.service';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import type { AssetDetail, AssetSummary, ReadableAsset } from './asset-views';
import type { ListAssetsQueryDto } from './dto/list-assets-query.dto';
import type { UploadCsvDto } from './dto/upload-csv.dto';
import type { AssetColumn } from './entities/asset.entity';
import { CsvIngestService } from './ingest/csv-ingest.service';
import type { NewAssetDetails, StagedUpload } from './ingest/staged-upload';

const DATASET_NOT_FOUND = 'Dataset not found';
export const DEFAULT_PAGE_SIZE = 100;

interface AssetRow {
  id: string;
  title: string;
  description: string;
  category: string;
  keywords: string[];
  price: number;
  currency: string;
  is_public: boolean;
  image: string | null;
  subscriber_count: number;
  source: string;
  author: string;
  row_count: number;
  created_at: Date;
  owned: boolean;
  has_access: boolean;
  owner_id: string | null;
  table_name: string;
  columns: AssetColumn[];
  total?: string;
}

/** The columns every asset query selects; `$1` is the caller's id or NULL. */
const ASSET_COLUMNS = `asset.id, asset.title, asset.description, asset.category, asset.keywords,
  asset.price::float8 AS price, asset.currency, asset.is_public, asset.image, asset.subscriber_count,
  asset.source, asset.author, asset.row_count::float8 AS row_count, asset.created_at,
  asset.owner_id, asset.table_name,
  COALESCE(asset.owner_id = $1::uuid, false) AS owned, ${accessSql.hasAccess('asset', '$1')} AS has_access`;

function toSummary(row: AssetRow): AssetSummary {
  return {
    id: row.id,
    type: 'dataset',
    title: row.title,
    description: row.description,
    category: row.category,
    keywords: row.keywords,
    price: row.price,
    currency: row.currency,
    is_public: row.is_public,
    visibility: row.is_public ? 'public' : 'private',
    image: row.image,
    subscriber_count: row.subscriber_count,
    source: row.source,
    author: row.author,
    row_count: row.row_count,
    created_at: row.created_at.toISOString(),
    owned: row.owned,
    has_access: row.has_access,
  };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/**
 * The dataset catalogue and the datasets' metadata. Every read goes through the access rules of
 * AccessService; invisible datasets answer 404 like missing ones.
 */
/** Categories the filter menu lists at most. */
const MAX_CATEGORIES = 200;

@Injectable()
export class AssetsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessService,
    private readonly ingest: CsvIngestService,
  ) {}

  /** Distinct categories of the datasets the caller may see, by name (capped: it feeds a menu). */
  async categories(userId: string | undefined): Promise<string[]> {
    const rows: { category: string }[] = await this.dataSource.query(
      `SELECT DISTINCT asset.category FROM assets asset
        WHERE ${accessSql.visible('asset', '$1')} AND asset.category <> ''
        ORDER BY asset.category LIMIT ${MAX_CATEGORIES}`,
      [userId ?? null],
    );
    return rows.map((row) => row.category);
  }

  /** One page of the catalogue the caller may see, newest first, with the total for paging. */
  async list(
    userId: string | undefined,
    query: ListAssetsQueryDto,
  ): Promise<{ items: AssetSummary[]; total: number }> {
    const params: unknown[] = [userId ?? null];
    const conditions = [accessSql.visible('asset', '$1')];
    if (query.search?.trim()) {
      params.push(`%${escapeLike(query.search.trim())}%`);
      conditions.push(`asset.title ILIKE $${params.length}`);
    }
    if (query.category?.length) {
      params.push(query.category);
      conditions.push(`asset.category = ANY($${params.length}::text[])`);
    }
    if (query.scope === 'owned') conditions.push(`COALESCE(asset.owner_id = $1::uuid, false)`);
    if (query.scope === 'accessible') conditions.push(accessSql.hasAccess('asset', '$1'));
    const where = conditions.join(' AND ');
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const offset = query.offset ?? 0;
    // The total is its own subquery, not count(*) OVER (): PostgreSQL 15 costs the window as if
    // LIMIT stopped it early, so it would walk created_at and test every title instead of using
    // the trigram index. Both parts still read one snapshot, so the total stays exact.
    const rows: AssetRow[] = await this.dataSource.query(
      `SELECT ${ASSET_COLUMNS}, (SELECT count(*) FROM assets asset WHERE ${where}) AS total
         FROM assets asset WHERE ${where}
        ORDER BY asset.created_at DESC, asset.id DESC
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, limit, offset],
    );
    let total = rows.length > 0 ? Number(rows[0].total) : 0;
    if (rows.length === 0 && offset > 0) {
      const [counted]: { total: string }[] = await this.dataSource.query(
        `SELECT count(*) AS total FROM assets asset WHERE ${where}`,
        params,
      );
      total = Number(counted.total);
    }
    return { items: rows.map(toSummary), total };
  }

  /** One dataset for the detail screen, with its columns. */
  async findOne(userId: string | undefined, assetId: string): Promise<AssetDetail> {
    const row = await this.findRow(userId, assetId);
    return { ...toSummary(row), columns: row.columns };
  }

  /** A dataset the caller can see (NotFound otherwise), with its table name and columns. */
  async findReadableAsset(userId: string | undefined, assetId: string): Promise<ReadableAsset> {
    return this.toReadable(await this.findRow(userId, assetId));
  }

  /**
   * A dataset whose full rows the caller may read: NotFound when invisible, Forbidden when
   * visible without access. For streaming and full exports.
   */
  async findAccessibleAsset(userId: string | undefined, assetId: string): Promise<ReadableAsset> {
    const asset = await this.findReadableAsset(userId, assetId);
    if (!asset.hasAccess) throw new ForbiddenException('Get access to this dataset first');
    return asset;
  }

  /** Every dataset the user may read in full (owned ones included), oldest first. */
  async listAccessibleAssets(userId: string): Promise<ReadableAsset[]> {
    const rows: AssetRow[] = await this.dataSource.query(
      `SELECT ${ASSET_COLUMNS}, asset.columns FROM assets asset
        WHERE ${accessSql.hasAccess('asset', '$1')} ORDER BY asset.created_at, asset.id`,
      [userId],
    );
    return rows.map((row) => this.toReadable(row));
  }

  /** Publishes an uploaded CSV (already staged by the upload interceptor) as the user's dataset. */
  async publishUpload(user: AuthenticatedUser, input: UploadCsvDto, staged: StagedUpload): Promise<string> {
    const title = input.title?.trim();
    if (!title) throw new BadRequestException('Add title & CSV file.');
    return staged.publish({
      ownerId: user.id,
      title,
      description: input.description?.trim() ?? '',
      category: input.category?.trim() || 'Other',
      keywords: input.keywords ?? [],
      price: input.price?.trim() ?? '0',
      isPublic: input.is_public ?? true,
      source: 'CSV upload',
      author: user.name,
    });
  }

  /** Ingests a CSV stream as a new dataset in one go (used by the seed); returns its id. */
  async ingestCsv(details: NewAssetDetails, source: Readable): Promise<string> {
    const staged = await this.ingest.stage(source);
    try {
      return await staged.publish(details);
    } finally {
      await staged.discard();
    }
  }

  /** Whether the owner already has a dataset with this exact title (keeps the seed idempotent). */
  async ownerHasTitle(ownerId: string, title: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM assets WHERE owner_id = $1 AND title = $2`,
      [ownerId, title],
    );
    return rows.length > 0;
  }

  private async findRow(userId: string | undefined, assetId: string): Promise<AssetRow> {
    if (!isUuid(assetId)) throw new NotFoundException(DATASET_NOT_FOUND);
    const rows: AssetRow[] = await this.dataSource.query(
      `SELECT ${ASSET_COLUMNS}, asset.columns FROM assets asset
        WHERE asset.id = $2 AND ${this.access.sql.visible('asset', '$1')}`,
      [userId ?? null, assetId],
    );
    if (rows.length === 0) throw new NotFoundException(DATASET_NOT_FOUND);
    return rows[0];
  }

  private toReadable(row: AssetRow): ReadableAsset {
    return {
      id: row.id,
      title: row.title,
      ownerId: row.owner_id,
      isPublic: row.is_public,
      tableName: row.table_name,
      columns: row.columns,
      rowCount: row.row_count,
      owned: row.owned,
      hasAccess: row.has_access,
    };
  }
}
