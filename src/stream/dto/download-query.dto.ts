import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import {
  PARQUET_COMPRESSION_DESCRIPTION,
  PARQUET_COMPRESSION_MESSAGE,
  PARQUET_COMPRESSIONS,
  type ParquetCompression,
} from '../../formats/writers/parquet-compression';

const DOWNLOAD_FORMATS = ['csv', 'json', 'parquet', 'xlsx'] as const;

/** `GET downloads/{assetId}`: the file format of a browser download. */
export class DownloadQueryDto {
  @ApiPropertyOptional({ enum: DOWNLOAD_FORMATS, default: 'csv' })
  @IsOptional()
  @IsIn(DOWNLOAD_FORMATS, { message: 'format must be csv, json, parquet or xlsx' })
  format: (typeof DOWNLOAD_FORMATS)[number] = 'csv';

  @ApiPropertyOptional({ enum: PARQUET_COMPRESSIONS, description: PARQUET_COMPRESSION_DESCRIPTION })
  @IsOptional()
  @IsIn(PARQUET_COMPRESSIONS, { message: PARQUET_COMPRESSION_MESSAGE })
  compression?: ParquetCompression;
}
