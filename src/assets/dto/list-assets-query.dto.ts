import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';

/** `category=A&category=B` or `category=A,B`; "All" means no filter. */
function toCategoryList({ value }: { value: unknown }): unknown {
  const list = (Array.isArray(value) ? value : [value])
    .flatMap((entry) => (typeof entry === 'string' ? entry.split(',') : [entry]))
    .map((entry) => (typeof entry === 'string' ? entry.trim() : entry))
    .filter((entry) => entry !== '' && entry !== 'All');
  return list.length > 0 ? list : undefined;
}

export class ListAssetsQueryDto {
  @ApiPropertyOptional({ description: 'Text to look for in titles (case-insensitive)' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;

  @ApiPropertyOptional({
    description: 'One or more categories (repeat the parameter or separate with commas)',
    type: [String],
  })
  @IsOptional()
  @Transform(toCategoryList)
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  category?: string[];

  @ApiPropertyOptional({
    description: "'owned': only the caller's uploads; 'accessible': datasets the caller holds",
    enum: ['all', 'owned', 'accessible'],
  })
  @IsOptional()
  @IsIn(['all', 'owned', 'accessible'])
  scope?: 'all' | 'owned' | 'accessible';

  @ApiPropertyOptional({ default: 100, minimum: 1, maximum: 1000 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;

  @ApiPropertyOptional({ default: 0, minimum: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(10_000_000)
  offset?: number;
}
