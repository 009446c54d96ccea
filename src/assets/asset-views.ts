import type { BillingInterval } from './entities/asset.entity';
import { ApiProperty, ApiPropertyOptional, ApiSchema, OmitType } from '@nestjs/swagger';
import {
  CsvDialect,
  DATE_ORDERS,
  DECIMAL_MARKS,
  DELIMITERS,
  ENCODINGS,
  THOUSANDS_SEPARATORS,
} from '../formats/readers/csv-dialect';
import type { AssetColumn, ColumnProfile } from './entities/asset.entity';
import { LiveView } from './live-view';

const COLUMN_TYPES = ['integer', 'numeric', 'boolean', 'date', 'timestamp', 'timestamptz', 'text', 'jsonb'];

/** A column of a dataset's table, as the OpenAPI document describes it (the shape of AssetColumn). */
@ApiSchema({ name: 'AssetColumn' })
class AssetColumnDocument implements AssetColumn {
  @ApiProperty({ description: 'Column name in the table' })
  name: string;

  @ApiProperty({ description: 'The header text of the uploaded CSV' })
  label: string;

  @ApiProperty({ enum: COLUMN_TYPES })
  type: AssetColumn['type'];
}

/** The organisation a dataset belongs to, shown as its publisher. */
export class PublisherOrganisation {
  @ApiProperty({ description: 'Its id: members open its page, /organisations/{id}' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ description: 'Lower-case letters, digits and hyphens; unique' })
  slug: string;
}

/** A dataset as the DataStore card and the detail screen show it, personalised for the caller. */
export class AssetSummary {
  @ApiProperty()
  id: string;

  @ApiProperty({ enum: ['dataset'] })
  type: 'dataset';

  @ApiProperty()
  title: string;

  @ApiProperty({
    description: "The table's readable name: its OData entity set, stream link and download file name",
    example: 'sales_2024',
  })
  readable_name: string;

  @ApiProperty()
  description: string;

  @ApiProperty()
  category: string;

  @ApiProperty({ type: [String] })
  keywords: string[];

  @ApiProperty({ description: '0 means free' })
  price: number;

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({
    type: String,
    enum: ['month', 'year'],
    nullable: true,
    description: 'Null for a one-off price; otherwise `price` is charged each month or year (a subscription)',
  })
  billing_interval: BillingInterval | null;

  @ApiProperty({ description: 'Free days before a new subscription is first charged (recurring prices)' })
  trial_days: number;

  @ApiProperty()
  is_public: boolean;

  @ApiProperty({ enum: ['public', 'private'] })
  visibility: 'public' | 'private';

  @ApiProperty({ type: String, nullable: true })
  image: string | null;

  @ApiProperty({ description: 'Users other than the owner holding the dataset' })
  subscriber_count: number;

  @ApiProperty()
  source: string;

  @ApiProperty()
  author: string;

  @ApiProperty({
    type: PublisherOrganisation,
    nullable: true,
    description: 'The organisation it belongs to, shown as its publisher; null for a personal dataset',
  })
  organisation: PublisherOrganisation | null;

  @ApiProperty()
  row_count: number;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ description: 'The caller uploaded it' })
  owned: boolean;

  @ApiProperty({ description: 'The caller may read all rows (owner, got or bought it)' })
  has_access: boolean;

  @ApiProperty({
    description: 'The caller paid for it once: getting it back (after a Remove) costs nothing',
  })
  bought: boolean;

  @ApiProperty({ description: 'Published from a connection and refreshed by its runs' })
  live: boolean;

  @ApiProperty({ format: 'date-time', description: 'When the rows last changed' })
  data_updated_at: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Live datasets only: since when a refresh is overdue',
  })
  stale_since: string | null;
}

@ApiSchema({ name: 'TopValue' })
class TopValueDocument {
  @ApiProperty()
  value: string;

  @ApiProperty()
  count: number;
}

/** What the load found in one column (see ColumnProfile). */
@ApiSchema({ name: 'ColumnProfile' })
class ColumnProfileDocument implements ColumnProfile {
  @ApiProperty()
  name: string;

  @ApiProperty({ description: 'Share of NULLs (no value), 0 to 1' })
  nullShare: number;

  @ApiPropertyOptional({ description: 'Text only: share of empty strings, 0 to 1 (not counted as NULLs)' })
  emptyStringShare?: number;

  @ApiProperty()
  distinctCount: number;

  @ApiPropertyOptional({
    oneOf: [{ type: 'number' }, { type: 'string' }],
    nullable: true,
    description: 'Numbers and dates: the smallest value',
  })
  min?: number | string | null;

  @ApiPropertyOptional({
    oneOf: [{ type: 'number' }, { type: 'string' }],
    nullable: true,
    description: 'Numbers and dates: the largest value',
  })
  max?: number | string | null;

  @ApiPropertyOptional({
    type: () => [TopValueDocument],
    description: 'Text and booleans: the most frequent values',
  })
  topValues?: Array<{ value: string; count: number }>;
}

/** One load of a dataset's rows. */
export class DatasetVersionView {
  @ApiProperty({ enum: ['initial', 'replace', 'append'] })
  mode: 'initial' | 'replace' | 'append';

  @ApiProperty({ format: 'date-time' })
  loaded_at: string;

  @ApiProperty({ description: 'Name of the user who loaded it', type: String, nullable: true })
  loaded_by: string | null;

  @ApiProperty({ description: 'Rows this load brought' })
  row_count: number;

  @ApiProperty({ description: 'Bytes of the file loaded' })
  byte_count: number;
}

export class AssetDetail extends OmitType(AssetSummary, ['live'] as const) {
  @ApiProperty({ type: () => [AssetColumnDocument] })
  columns: AssetColumn[];

  @ApiProperty({
    description:
      'The licence: an SPDX identifier such as CC-BY-4.0 when it is a listed one, else as the owner words it; empty when not given',
  })
  licence: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Data dictionary: a description per column name',
  })
  dictionary: Record<string, string>;

  @ApiProperty({ type: () => [ColumnProfileDocument] })
  profile: ColumnProfile[];

  @ApiProperty({
    description:
      'The profile describes older rows: the current ones are being profiled (seconds for large loads)',
  })
  profile_pending: boolean;

  @ApiProperty({
    description: 'Bytes of the files behind the current rows; of a live dataset, of its rows as stored',
  })
  byte_count: number;

  @ApiProperty({ type: () => [DatasetVersionView], description: 'Every load, newest first' })
  versions: DatasetVersionView[];

  @ApiProperty({
    type: () => LiveView,
    nullable: true,
    description: 'Freshness of a dataset published from a connection; null for uploaded ones',
  })
  live: LiveView | null;
}

/** The answer of POST assets/{id}/refresh. */
export class DatasetRefreshed {
  @ApiProperty()
  id: string;

  @ApiProperty({ enum: ['replace', 'append'] })
  mode: 'replace' | 'append';

  @ApiProperty({ description: 'Rows in the file loaded' })
  rows_loaded: number;

  @ApiProperty({ description: 'Rows in the dataset now' })
  row_count: number;
}

/** The answer of DELETE assets/{id}. */
export class DatasetRemoved {
  @ApiProperty({ example: 'Dataset deleted.' })
  message: string;

  @ApiProperty()
  id: string;

  @ApiProperty({ description: 'Users other than the owner who held the dataset and lost access' })
  holders_lost_access: number;
}

/** DELETE assets/{id} of a dataset others paid for: archived instead, its holders keep access. */
export class DatasetArchived {
  @ApiProperty({ example: 'Dataset archived: 2 holders keep access.' })
  message: string;

  @ApiProperty()
  id: string;

  @ApiProperty({ enum: [true] })
  archived: true;

  @ApiProperty({ description: 'Users other than the owner who hold the dataset and keep reading it' })
  holders_keep_access: number;
}

/** Rows for the grid: a page of the full data, or the sample preview for callers without access. */
export class AssetData {
  @ApiProperty({ type: () => [AssetColumnDocument] })
  columns: AssetColumn[];

  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } })
  rows: Record<string, unknown>[];

  @ApiProperty({ description: 'Rows in the whole dataset' })
  total: number;

  @ApiProperty({ description: "True when these are the at most 10 preview rows ('Sample Data Preview')" })
  sample: boolean;

  @ApiProperty()
  limit: number;

  @ApiProperty()
  offset: number;
}

/** A column of a connector instance's table. */
@ApiSchema({ name: 'TableColumn' })
class TableColumnDocument {
  @ApiProperty()
  name: string;

  @ApiProperty({ description: 'integer, numeric, boolean, date, timestamptz, text or jsonb' })
  type: string;
}

/** The latest rows of a connector instance's table. */
export class ConnectorTableRows {
  @ApiProperty({ type: () => [TableColumnDocument] })
  columns: { name: string; type: string }[];

  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } })
  rows: Record<string, unknown>[];
}

/** How a CSV file is written, as detected or chosen (the shape of CsvDialect). */
@ApiSchema({ name: 'CsvDialect' })
class CsvDialectDocument implements CsvDialect {
  @ApiProperty({ enum: DELIMITERS })
  delimiter: CsvDialect['delimiter'];

  @ApiProperty({ enum: ENCODINGS })
  encoding: CsvDialect['encoding'];

  @ApiProperty({ enum: DECIMAL_MARKS })
  decimal: CsvDialect['decimal'];

  @ApiProperty({ enum: THOUSANDS_SEPARATORS, description: "'' for none" })
  thousands: CsvDialect['thousands'];

  @ApiProperty({ enum: DATE_ORDERS, description: 'Order of dates like 01/02/2024; ymd: ISO dates only' })
  dateOrder: CsvDialect['dateOrder'];
}

/** What an upload would make of a file, answered by POST assets/upload-preview; nothing is stored. */
export class UploadPreview {
  @ApiProperty({ type: CsvDialectDocument })
  dialect: CsvDialect;

  @ApiProperty({
    type: [AssetColumnDocument],
    description: 'The types the sampled values fit in that dialect',
  })
  columns: AssetColumn[];

  @ApiProperty({
    type: 'array',
    items: { type: 'array', items: { type: 'string' } },
    description: 'The first rows, as written in the file',
  })
  rows: string[][];
}

/** Where a new dataset lives, answered by POST assets/upload-csv. */
export class UploadedDataset {
  @ApiProperty()
  id: string;

  @ApiProperty({ example: '/dataset_profile/0b6e…' })
  redirectUrl: string;

  @ApiProperty({
    type: CsvDialectDocument,
    description:
      'How the file was read: the fields the upload chose, the rest detected in the file as the preview detects them',
  })
  dialect: CsvDialect;
}

/** A category of the catalogue with how many datasets (matching the search) it holds. */
export class CategoryFacet {
  @ApiProperty()
  category: string;

  @ApiProperty()
  count: number;
}

/** One day of a dataset's use, for its owner. */
export class ActivityDay {
  @ApiProperty({ format: 'date', example: '2026-11-23' })
  day: string;

  @ApiProperty({ description: 'Users other than the owner holding the dataset at the end of the day' })
  subscribers: number;

  @ApiProperty()
  grid_views: number;

  @ApiProperty({
    description: 'Stream link requests and OData reads (each read counted once, on its first page)',
  })
  stream_requests: number;
}

/** The owner's activity view of a dataset: the last 90 days, oldest first. */
export class DatasetActivity {
  @ApiProperty()
  id: string;

  @ApiProperty({ type: () => [ActivityDay] })
  days: ActivityDay[];
}
