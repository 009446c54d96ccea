import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import {
  PARQUET_COMPRESSION_DESCRIPTION,
  PARQUET_COMPRESSION_MESSAGE,
  PARQUET_COMPRESSIONS,
  type ParquetCompression,
} from '../../formats/writers/parquet-compression';

export const QUERY_FORMATS = ['json', 'csv', 'ndjson', 'parquet', 'xlsx'] as const;
export type QueryFormat = (typeof QUERY_FORMATS)[number];
export const QUERY_MAX_LENGTH = 100_000;

export class RunQueryDto {
  @ApiProperty({ description: 'One SELECT (or WITH … SELECT, VALUES, EXPLAIN) over the tables you hold' })
  @IsString({ message: 'sql must be text' })
  @MaxLength(QUERY_MAX_LENGTH, { message: `A query has at most ${QUERY_MAX_LENGTH} characters` })
  sql: string;

  @ApiPropertyOptional({ enum: QUERY_FORMATS, default: 'json' })
  @IsOptional()
  @IsIn(QUERY_FORMATS, { message: `format is one of ${QUERY_FORMATS.join(', ')}` })
  format?: QueryFormat;

  @ApiPropertyOptional({ enum: PARQUET_COMPRESSIONS, description: PARQUET_COMPRESSION_DESCRIPTION })
  @IsOptional()
  @IsIn(PARQUET_COMPRESSIONS, { message: PARQUET_COMPRESSION_MESSAGE })
  compression?: ParquetCompression;

  @ApiPropertyOptional({ minimum: 1, description: 'Most rows to answer (at most QUERY_MAX_ROWS)' })
  @IsOptional()
  @IsInt({ message: 'limit must be a whole number' })
  @Min(1, { message: 'limit must be at least 1' })
  limit?: number;
}
