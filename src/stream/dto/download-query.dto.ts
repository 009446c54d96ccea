import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';

const DOWNLOAD_FORMATS = ['csv', 'json', 'parquet', 'xlsx'] as const;

/** `GET downloads/{assetId}`: the file format of a browser download. */
export class DownloadQueryDto {
  @ApiPropertyOptional({ enum: DOWNLOAD_FORMATS, default: 'csv' })
  @IsOptional()
  @IsIn(DOWNLOAD_FORMATS, { message: 'format must be csv, json, parquet or xlsx' })
  format: (typeof DOWNLOAD_FORMATS)[number] = 'csv';
}
