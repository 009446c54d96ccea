import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { AssetColumn } from './entities/asset.entity';

const COLUMN_TYPES = ['integer', 'numeric', 'boolean', 'date', 'timestamp', 'timestamptz', 'text', 'jsonb'];

/** One refresh of a live dataset as its listing shows it. */
export class LiveRunView {
  @ApiProperty({ format: 'date-time' })
  finished_at: string;

  @ApiProperty({ enum: ['updated', 'unchanged', 'failed', 'schema_change'] })
  outcome: 'updated' | 'unchanged' | 'failed' | 'schema_change';

  @ApiProperty({
    description: 'Rows of the dataset after this refresh (the rows kept when it loaded nothing)',
  })
  row_count: number;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      "The owner only: why the run failed (subscribers never get this key: it may name the upstream's URLs)",
  })
  error?: string | null;
}

export class LiveColumnView {
  @ApiProperty()
  name: string;

  @ApiProperty({ enum: COLUMN_TYPES })
  type: AssetColumn['type'];
}

export class LiveRetypedColumnView {
  @ApiProperty()
  name: string;

  @ApiProperty({ enum: COLUMN_TYPES })
  from: AssetColumn['type'];

  @ApiProperty({ enum: COLUMN_TYPES })
  to: AssetColumn['type'];
}

/** A run held because it would drop or retype published columns, for the owner to accept or not. */
export class PendingSchemaChangeView {
  @ApiProperty({ format: 'date-time' })
  detected_at: string;

  @ApiProperty({ type: () => [LiveColumnView] })
  added: LiveColumnView[];

  @ApiProperty({ type: () => [LiveColumnView] })
  dropped: LiveColumnView[];

  @ApiProperty({ type: () => [LiveRetypedColumnView] })
  retyped: LiveRetypedColumnView[];
}

/** The freshness of a dataset published from a connection (null for uploaded datasets). */
export class LiveView {
  @ApiProperty({ description: 'Minutes between scheduled refreshes; 0: refreshed by hand only' })
  interval_minutes: number;

  @ApiProperty({ description: 'How long after a missed refresh the listing turns stale' })
  grace_minutes: number;

  @ApiProperty({ format: 'date-time', description: 'The last refresh that succeeded (new rows or none)' })
  last_refreshed_at: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Null without a schedule' })
  next_refresh_at: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  stale_since: string | null;

  @ApiProperty({ type: () => [LiveRunView], description: 'The last 10 refreshes, newest first' })
  runs: LiveRunView[];

  @ApiProperty({ type: [String], description: 'Columns refreshes added after publishing' })
  new_columns: string[];

  @ApiPropertyOptional({
    type: () => PendingSchemaChangeView,
    nullable: true,
    description: 'The owner only: a held schema-changing refresh',
  })
  pending_schema_change?: PendingSchemaChangeView | null;

  @ApiPropertyOptional({ description: 'The owner only: the connection feeding the dataset' })
  instance_id?: string;
}
