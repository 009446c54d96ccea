import type { Readable } from 'node:stream';
import { BadRequestException, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ReadReplica } from '../database/read-replica.service';
import { AccessGate, boughtOnce, Caller, DatasetAccess } from '../access/access-gate.service';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import type {
  AssetDetail,
  AssetSummary,
  CategoryFacet,
  DatasetVersionView,
  PublisherOrganisation,
} from './asset-views';
import type { CatalogueSort, FacetsQueryDto, ListAssetsQueryDto } from './dto/list-assets-query.dto';
import type { UploadCsvDto } from './dto/upload-csv.dto';
import { DatasetHooks } from './dataset-hooks';
import { Asset, type BillingInterval } from './entities/asset.entity';
import type { LiveView } from './live-view';
import { ColumnProfileService, isProfilePending } from './ingest/column-profile.service';
import { CsvIngestService } from './ingest/csv-ingest.service';
import type { NewAssetDetails, StagedUpload } from './ingest/staged-upload';

export const DEFAULT_PAGE_SIZE = 100;

/** A catalogue row as the list query selects it (see catalogueColumns). */
interface CatalogueRow {
  id: string;
  title: string;
  readable_name: string;
  description: string;
  category: string;
  keywords: string[];
  price: number;
  currency: string;
  billing_interval: BillingInterval | null;
  trial_days: number;
  is_public: boolean;
  image: string | null;
  subscriber_count: number;
  source: string;
  author: string;
  organisation: PublisherOrganisation | null;
  row_count: number;
  created_at: Date;
  owned: boolean;
  has_access: boolean;
  bought: boolean;
  live: boolean;
  data_updated_at: Date;
  stale_since: Date | null;
}

/** A dataset published from a connection (src/products): the catalogue shows which are live, and stale. */
const IS_LIVE = `EXISTS (SELECT 1 FROM live_products live WHERE live.asset_id = asset.id)`;
const STALE_SINCE = `(SELECT live.stale_since FROM live_products live WHERE live.asset_id = asset.id)`;
/** The organisation a dataset belongs to, as its publisher: id, name and slug, or null. */
const PUBLISHER = `(SELECT json_build_object('id', publisher.id, 'name', publisher.name, 'slug', publisher.slug)
  FROM organisations publisher WHERE publisher.id = asset.organisation_id)`;

function catalogueColumns(gate: AccessGate): string {
  return `asset.id, asset.title, asset.readable_name, asset.description, asset.category, asset.keywords,
  asset.price::float8 AS price, asset.currency, asset.billing_interval, asset.trial_days, asset.is_public, asset.image, asset.subscriber_count,
  asset.source, asset.author, ${PUBLISHER} AS organisation, asset.row_count::float8 AS row_count, asset.created_at,
  asset.data_updated_at, ${IS_LIVE} AS live, ${STALE_SINCE} AS stale_since,
  ${gate.datasetCondition('owned', 'asset', '$1')} AS owned,
  ${gate.datasetCondition('held', 'asset', '$1')} AS has_access, ${boughtOnce('asset', '$1')} AS bought`;
}

function rowToSummary(row: CatalogueRow): AssetSummary {
  return {
    id: row.id,
    type: 'dataset',
    title: row.title,
    readable_name: row.readable_name,
    description: row.description,
    category: row.category,
    keywords: row.keywords,
    price: row.price,
    currency: row.currency,
    billing_interval: row.billing_interval,
    trial_days: row.trial_days,
    is_public: row.is_public,
    visibility: row.is_public ? 'public' : 'private',
    image: row.image,
    subscriber_count: row.subscriber_count,
    source: row.source,
    author: row.author,
    organisation: row.organisation,
    row_count: row.row_count,
    created_at: row.created_at.toISOString(),
    owned: row.owned,
    has_access: row.has_access,
    bought: row.bought,
    live: row.live,
    data_updated_at: row.data_updated_at.toISOString(),
    stale_since: row.stale_since?.toISOString() ?? null,
  };
}

/** The same summary from the gate's answer for one dataset. */
function toSummary(
  { asset, owned, held }: DatasetAccess,
  live: LiveView | null,
  bought: boolean,
  organisation: PublisherOrganisation | null,
): AssetSummary {
  return rowToSummary({
    id: asset.id,
    title: asset.title,
    readable_name: asset.readableName,
    description: asset.description,
    category: asset.category,
    keywords: asset.keywords,
    price: Number(asset.price),
    currency: asset.currency,
    billing_interval: asset.billingInterval,
    trial_days: asset.trialDays,
    is_public: asset.isPublic,
    image: asset.image,
    subscriber_count: asset.subscriberCount,
    source: asset.source,
    author: asset.author,
    organisation,
    row_count: Number(asset.rowCount),
    created_at: asset.createdAt,
    owned,
    has_access: held,
    bought,
    live: live !== null,
    data_updated_at: asset.dataUpdatedAt,
    stale_since: live?.stale_since ? new Date(live.stale_since) : null,
  });
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** Loads listed on the detail page at most (newest first). */
const MAX_VERSIONS_SHOWN = 50;

/** Categories the filter menu lists at most. */
const MAX_CATEGORIES = 200;

/** The ORDER BY of a catalogue sort; `rank` names the search rank where there is one. */
function catalogueOrder(sort: CatalogueSort, rank?: string): string {
  const newest = 'asset.created_at DESC, asset.id DESC';
  const orders: Record<CatalogueSort, string> = {
    relevance: rank ? `${rank} DESC, ${newest}` : newest,
    newest,
    price_asc: `asset.price ASC, ${newest}`,
    price_desc: `asset.price DESC, ${newest}`,
    subscribers: `asset.subscriber_count DESC, ${newest}`,
    updated: `asset.data_updated_at DESC, ${newest}`,
  };
  return orders[sort];
}

function profileVisible({ asset, held }: DatasetAccess): boolean {
  return held || Number(asset.price) <= 0;
}

/**
 * The dataset catalogue and the datasets' metadata. Which datasets a caller sees is the
 * AccessGate's decision; invisible datasets answer 404 like missing ones.
 */
@Injectable()
export class AssetsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly reads: ReadReplica,
    private readonly gate: AccessGate,
    private readonly ingest: CsvIngestService,
    private readonly profiles: ColumnProfileService,
    private readonly hooks: DatasetHooks,
  ) {}

  /** Distinct categories of the datasets the caller may see, by name (capped: it feeds a menu). */
  async categories(caller: Caller): Promise<string[]> {
    const rows: { category: string }[] = await this.reads.forReads().query(
      `SELECT DISTINCT asset.category FROM assets asset
        WHERE ${this.gate.datasetCondition('visible', 'asset', '$1')} AND asset.category <> ''
        ORDER BY asset.category LIMIT ${MAX_CATEGORIES}`,
      [caller?.id ?? null],
    );
    return rows.map((row) => row.category);
  }

  /** Each category among the datasets the caller may see that match the search, with its count. */
  async facets(caller: Caller, query: FacetsQueryDto): Promise<CategoryFacet[]> {
    const { params, conditions } = this.catalogueFilter(caller, { ...query, category: undefined });
    const rows: { category: string; count: number }[] = await this.reads.forReads().query(
      `SELECT asset.category, count(*)::int AS count FROM assets asset
        WHERE ${conditions.join(' AND ')} AND asset.category <> ''
        GROUP BY asset.category ORDER BY count(*) DESC, asset.category LIMIT ${MAX_CATEGORIES}`,
      params,
    );
    return rows;
  }

  /**
   * One page of the catalogue the caller may see, with the total for paging. A search matches the
   * words of title, keywords and description (full text, stemmed) or text inside a title, and is
   * ranked by relevance unless another order is asked for; otherwise newest first.
   */
  async list(caller: Caller, query: ListAssetsQueryDto): Promise<{ items: AssetSummary[]; total: number }> {
    const { params, conditions, rank } = this.catalogueFilter(caller, query);
    const where = conditions.join(' AND ');
    const sort = query.sort ?? (rank ? 'relevance' : 'newest');
    params.push(query.limit ?? DEFAULT_PAGE_SIZE, query.offset ?? 0);
    const page = `LIMIT $${params.length - 1} OFFSET $${params.length}`;
    const rows: Array<CatalogueRow & { total: string }> = await this.reads
      .forReads()
      .query(
        rank ? this.searchPageSql(where, rank, sort, page) : this.browsePageSql(where, sort, page),
        params,
      );
    let total = rows.length > 0 ? Number(rows[0].total) : 0;
    if (rows.length === 0 && query.offset) {
      const [counted]: { total: string }[] = await this.reads
        .forReads()
        .query(`SELECT count(*) AS total FROM assets asset WHERE ${where}`, params.slice(0, -2));
      total = Number(counted.total);
    }
    return { items: rows.map(rowToSummary), total };
  }

  /**
   * A page of the catalogue without a search: the total is its own subquery, not count(*) OVER ():
   * PostgreSQL 15 costs the window as if LIMIT stopped it early, so it would walk created_at and
   * test every row instead of using the indexes. Both parts read one snapshot: the total is exact.
   */
  private browsePageSql(where: string, sort: CatalogueSort, page: string): string {
    return `SELECT ${catalogueColumns(this.gate)}, (SELECT count(*) FROM assets asset WHERE ${where}) AS total
              FROM assets asset WHERE ${where}
             ORDER BY ${catalogueOrder(sort)} ${page}`;
  }

  /**
   * A page of search results: the matches are found and ranked once (the count and the page both
   * read them), and only the page's rows are joined back for their columns. Every match has to be
   * ranked to know the first 20, so doing that work twice was most of the cost of a search.
   */
  private searchPageSql(where: string, rank: string, sort: CatalogueSort, page: string): string {
    return `WITH hits AS MATERIALIZED (
              SELECT asset.id, asset.created_at, asset.price, asset.subscriber_count, asset.data_updated_at,
                     ${rank} AS rank
                FROM assets asset WHERE ${where}
            ), page AS (
              SELECT * FROM hits asset ORDER BY ${catalogueOrder(sort, 'asset.rank')} ${page}
            )
            SELECT ${catalogueColumns(this.gate)}, (SELECT count(*) FROM hits) AS total
              FROM page JOIN assets asset ON asset.id = page.id
             ORDER BY ${catalogueOrder(sort, 'page.rank')}`;
  }

  /** The catalogue conditions of a query ($1 is the caller), and the rank expression of its search. */
  private catalogueFilter(
    caller: Caller,
    query: { search?: string; category?: string[]; scope?: ListAssetsQueryDto['scope']; live?: boolean },
  ): { params: unknown[]; conditions: string[]; rank?: string } {
    const params: unknown[] = [caller?.id ?? null];
    const conditions = [this.gate.datasetCondition('visible', 'asset', '$1')];
    let rank: string | undefined;
    const search = query.search?.trim();
    if (search) {
      params.push(`%${escapeLike(search)}%`, search);
      const like = `$${params.length - 1}`;
      const words = `websearch_to_tsquery('english', $${params.length})`;
      conditions.push(`(asset.search_document @@ ${words} OR asset.title ILIKE ${like})`);
      // Text inside a title word (no full-text match) ranks 0: after every word match, newest first.
      rank = `ts_rank(asset.search_document, ${words})`;
    }
    if (query.category?.length) {
      params.push(query.category);
      conditions.push(`asset.category = ANY($${params.length}::text[])`);
    }
    if (query.live) conditions.push(IS_LIVE);
    if (query.scope === 'owned') conditions.push(this.gate.datasetCondition('owned', 'asset', '$1'));
    if (query.scope === 'accessible') conditions.push(this.gate.datasetCondition('held', 'asset', '$1'));
    // Archived datasets leave the catalogue and its search; their holders find them under their own.
    if (!query.scope || query.scope === 'all') conditions.push('asset.archived_at IS NULL');
    return { params, conditions, rank };
  }

  /** One dataset for the detail screen, with its columns. */
  async findOne(caller: Caller, assetId: string): Promise<AssetDetail> {
    const access = await this.gate.requireDataset(caller, assetId, 'sample');
    const { asset } = access;
    this.profiles.repairIfStale(asset);
    const versions: Array<{
      mode: DatasetVersionView['mode'];
      loaded_at: Date;
      loaded_by: string | null;
      row_count: string;
      byte_count: string;
    }> = await this.reads.forReads().query(
      `SELECT version.mode, version.loaded_at, loader.name AS loaded_by, version.row_count, version.byte_count
         FROM dataset_versions version LEFT JOIN users loader ON loader.id = version.loaded_by
        WHERE version.asset_id = $1 ORDER BY version.loaded_at DESC, version.id LIMIT ${MAX_VERSIONS_SHOWN}`,
      [asset.id],
    );
    const live = await this.hooks.live(asset.id, access.owned);
    return {
      ...toSummary(access, live, await this.boughtByCaller(caller, asset.id), await this.publisher(asset)),
      columns: asset.columns,
      licence: asset.licence,
      dictionary: asset.dictionary,
      // Profiles summarise every row (top values, min and max): of a paid dataset, only holders see
      // them; others see what the sample shows.
      profile: profileVisible(access) ? asset.profile : [],
      profile_pending: profileVisible(access) && isProfilePending(asset),
      byte_count: Number(asset.byteCount),
      versions: versions.map((version) => ({
        ...version,
        loaded_at: version.loaded_at.toISOString(),
        row_count: Number(version.row_count),
        byte_count: Number(version.byte_count),
      })),
      live,
    };
  }

  /** The organisation the dataset belongs to (read on the primary: right after a move, it shows). */
  private async publisher(asset: Asset): Promise<PublisherOrganisation | null> {
    if (asset.organisationId === null) return null;
    const [row]: Array<{ organisation: PublisherOrganisation | null }> = await this.dataSource.query(
      `SELECT ${PUBLISHER} AS organisation FROM assets asset WHERE asset.id = $1`,
      [asset.id],
    );
    return row?.organisation ?? null;
  }

  /** Read on the primary: right after their own purchase or Remove, the caller sees its outcome. */
  private async boughtByCaller(caller: Caller, assetId: string): Promise<boolean> {
    if (!caller) return false;
    const [row]: Array<{ bought: boolean }> = await this.dataSource.query(
      `SELECT ${boughtOnce('asset', '$2')} AS bought FROM assets asset WHERE asset.id = $1`,
      [assetId, caller.id],
    );
    return !!row?.bought;
  }

  /** Publishes an uploaded CSV (already staged by the upload interceptor) as the user's dataset. */
  async publishUpload(user: AuthenticatedUser, input: UploadCsvDto, staged: StagedUpload): Promise<string> {
    const title = input.title?.trim();
    if (!title) throw new BadRequestException('Add title & CSV file.');
    const id = await staged.publish({
      ownerId: user.id,
      title,
      description: input.description?.trim() ?? '',
      category: input.category?.trim() || 'Other',
      keywords: input.keywords ?? [],
      price: input.price?.trim() ?? '0',
      isPublic: input.is_public ?? true,
      source: 'CSV upload',
      author: user.name,
      licence: input.licence ?? '',
    });
    this.profiles.schedule(id);
    return id;
  }

  /** Ingests a CSV stream as a new dataset in one go (used by the seed); returns its id. */
  async ingestCsv(details: NewAssetDetails, source: Readable): Promise<string> {
    const staged = await this.ingest.stage(source);
    try {
      const id = await staged.publish(details);
      this.profiles.schedule(id);
      return id;
    } finally {
      await staged.discard();
    }
  }

  /** Whether the owner already has a dataset with this exact title (keeps the seed idempotent). */
  ownerHasTitle(ownerId: string, title: string): Promise<boolean> {
    return this.dataSource.getRepository(Asset).existsBy({ ownerId, title });
  }
}
