import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { STREAM_FORMATS, type StreamFormat } from '../stream-source';
import {
  PARQUET_COMPRESSION_DESCRIPTION,
  PARQUET_COMPRESSION_MESSAGE,
  PARQUET_COMPRESSIONS,
  type ParquetCompression,
} from '../../formats/writers/parquet-compression';
import { RowFilterParam } from '../../common/decorators/row-filter-param.decorator';

export class StreamQueryDto {
  @ApiPropertyOptional({ description: 'Personal API key (or send it in the X-API-Key header)' })
  @IsOptional()
  @IsString()
  api_key?: string;

  @ApiPropertyOptional({
    enum: STREAM_FORMATS,
    default: 'json',
    description: 'parquet and xlsx (at most 1,048,575 rows) for the link of one dataset or table',
  })
  @IsOptional()
  @IsIn(STREAM_FORMATS, { message: 'format must be json, ndjson, csv, parquet or xlsx' })
  format: StreamFormat = 'json';

  @ApiPropertyOptional({ enum: PARQUET_COMPRESSIONS, description: PARQUET_COMPRESSION_DESCRIPTION })
  @IsOptional()
  @IsIn(PARQUET_COMPRESSIONS, { message: PARQUET_COMPRESSION_MESSAGE })
  compression?: ParquetCompression;

  @ApiPropertyOptional({ description: 'Rows to return at most (every row when left out)', minimum: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number' })
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  limit?: number;

  @ApiPropertyOptional({ description: 'Rows to skip first', minimum: 0, default: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'offset must be a whole number' })
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  offset: number = 0;

  @RowFilterParam(
    'Row filters of a one-source link, repeatable: column:operator:value with contains, equals, ' +
      'gt, gte, lt, lte, or column:empty / column:notempty (e.g. amount:gte:10). All must hold.',
  )
  filter?: string[];
}
