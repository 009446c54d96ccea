import { ApiProperty } from '@nestjs/swagger';

/** GET query/history: one query the caller ran. */
export class QueryHistoryEntryResponse {
  @ApiProperty()
  id: string;

  @ApiProperty()
  sql: string;

  @ApiProperty({ format: 'date-time' })
  started_at: string;

  @ApiProperty()
  elapsed_ms: number;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Rows answered; null when it failed or was answered as CSV (not counted)',
  })
  row_count: number | null;

  @ApiProperty({ type: String, nullable: true, description: 'Why it failed or stopped' })
  error: string | null;
}
