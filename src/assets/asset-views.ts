import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { AssetColumn } from './entities/asset.entity';

const COLUMN_TYPES = ['integer', 'numeric', 'boolean', 'date', 'timestamptz', 'text', 'jsonb'];

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

/** A dataset as the DataStore card and the detail screen show it, personalised for the caller. */
export class AssetSummary {
  @ApiProperty()
  id: string;

  @ApiProperty({ enum: ['dataset'] })
  type: 'dataset';

  @ApiProperty()
  title: string;

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

  @ApiProperty()
  is_public: boolean;

  @ApiProperty({ enum: ['public', 'private'] })
  visibility: 'public' | 'private';

  @ApiProperty({ type: String, nullable: true })
  image: string | null;

  @ApiProperty()
  subscriber_count: number;

  @ApiProperty()
  source: string;

  @ApiProperty()
  author: string;

  @ApiProperty()
  row_count: number;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ description: 'The caller uploaded it' })
  owned: boolean;

  @ApiProperty({ description: 'The caller may read all rows (owner, got or bought it)' })
  has_access: boolean;
}

export class AssetDetail extends AssetSummary {
  @ApiProperty({ type: () => [AssetColumnDocument] })
  columns: AssetColumn[];
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

/** Where a new dataset lives, answered by POST assets/upload-csv. */
export class UploadedDataset {
  @ApiProperty()
  id: string;

  @ApiProperty({ example: '/dataset_profile/0b6e…' })
  redirectUrl: string;
}
