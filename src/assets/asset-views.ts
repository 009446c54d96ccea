import type { AssetColumn } from './entities/asset.entity';

/** A dataset as the DataStore card and the detail screen show it, personalised for the caller. */
export interface AssetSummary {
  id: string;
  type: 'dataset';
  title: string;
  description: string;
  category: string;
  keywords: string[];
  /** 0 means free. */
  price: number;
  currency: string;
  is_public: boolean;
  visibility: 'public' | 'private';
  image: string | null;
  subscriber_count: number;
  source: string;
  author: string;
  row_count: number;
  created_at: string;
  /** The caller uploaded it. */
  owned: boolean;
  /** The caller may read all rows (owner, got or bought it). */
  has_access: boolean;
}

export interface AssetDetail extends AssetSummary {
  columns: AssetColumn[];
}

/** Rows for the grid: a page of the full data, or the sample preview for callers without access. */
export interface AssetData {
  columns: AssetColumn[];
  rows: Record<string, unknown>[];
  /** Rows in the whole dataset. */
  total: number;
  /** True when these are the at most 10 preview rows ('Sample Data Preview'). */
  sample: boolean;
  limit: number;
  offset: number;
}

/** The latest rows of a connector instance's table. */
export interface ConnectorTableRows {
  columns: { name: string; type: string }[];
  rows: Record<string, unknown>[];
}

/** A dataset with what is needed to read its table (for the stream module and other services). */
export interface ReadableAsset {
  id: string;
  title: string;
  ownerId: string | null;
  isPublic: boolean;
  /** Table in schema `data`; quote it with datasetTable(). */
  tableName: string;
  columns: AssetColumn[];
  rowCount: number;
  owned: boolean;
  hasAccess: boolean;
}
