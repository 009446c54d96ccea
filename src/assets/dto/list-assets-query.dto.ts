import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { toBoolean } from './upload-csv.dto';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
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

export const CATALOGUE_SORTS = [
  'relevance',
  'newest',
  'price_asc',
  'price_desc',
  'subscribers',
  'updated',
] as const;
export type CatalogueSort = (typeof CATALOGUE_SORTS)[number];

/** `GET assets/facets`: the counts follow the search, scope and Live only, not the category filter. */
export class FacetsQueryDto {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;

  @ApiPropertyOptional({ enum: ['all', 'owned', 'accessible'] })
  @IsOptional()
  @IsIn(['all', 'owned', 'accessible'])
  scope?: 'all' | 'owned' | 'accessible';

  @ApiPropertyOptional({ description: 'true: count only datasets published from a connection (Live only)' })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean({ message: 'live must be true or false' })
  live?: boolean;
}

export class ListAssetsQueryDto {
  @ApiPropertyOptional({
    description:
      'Words to look for in title, keywords and description (full text, ranked), or text inside a title',
  })
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

  @ApiPropertyOptional({
    description:
      "Order: 'relevance' (the default with a search), 'newest' (the default without), 'price_asc', " +
      "'price_desc', 'subscribers', 'updated' (rows changed most recently first)",
    enum: CATALOGUE_SORTS,
  })
  @IsOptional()
  @IsIn(CATALOGUE_SORTS, { message: `sort must be one of ${CATALOGUE_SORTS.join(', ')}` })
  sort?: CatalogueSort;

  @ApiPropertyOptional({ description: 'true: only datasets published from a connection (Live only)' })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean({ message: 'live must be true or false' })
  live?: boolean;

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
