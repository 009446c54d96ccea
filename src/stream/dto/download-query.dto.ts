import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';

/** `GET downloads/{assetId}`: the file format of a browser download. */
export class DownloadQueryDto {
  @ApiPropertyOptional({ enum: ['csv', 'json'], default: 'csv' })
  @IsOptional()
  @IsIn(['csv', 'json'], { message: 'format must be csv or json' })
  format: 'csv' | 'json' = 'csv';
}
