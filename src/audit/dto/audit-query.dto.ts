import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsNumberString, IsOptional, Max, Min } from 'class-validator';
import { AUDIT_EVENT_TYPES } from '../audit-event-type';
import type { AuditEventType } from '../audit-event-type';

/** `type=a&type=b` or `type=a,b`. */
function toList({ value }: { value: unknown }): unknown {
  const list = (Array.isArray(value) ? value : [value]).flatMap((entry) =>
    typeof entry === 'string' ? entry.split(',').filter(Boolean) : [entry],
  );
  return list.length > 0 ? list : undefined;
}

/** Which events: by type and time range (from inclusive, to exclusive). */
export class AuditFilter {
  @ApiPropertyOptional({ enum: AUDIT_EVENT_TYPES, isArray: true })
  @IsOptional()
  @Transform(toList)
  @IsIn(AUDIT_EVENT_TYPES, { each: true })
  type?: AuditEventType[];

  @ApiPropertyOptional({ description: 'ISO 8601 time; events at or after it' })
  @IsOptional()
  @IsISO8601()
  from?: string;

  @ApiPropertyOptional({ description: 'ISO 8601 time; events before it' })
  @IsOptional()
  @IsISO8601()
  to?: string;

  @ApiPropertyOptional({ description: 'Events older than this event id (the next page)' })
  @IsOptional()
  @IsNumberString({ no_symbols: true })
  before?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 200, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit?: number;
}

export class AuditExportQuery extends AuditFilter {
  @ApiPropertyOptional({ enum: ['csv', 'jsonl'], default: 'csv' })
  @IsOptional()
  @IsIn(['csv', 'jsonl'])
  format?: 'csv' | 'jsonl';
}
