import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { RowFilterParam } from '../../common/decorators/row-filter-param.decorator';

export class AssetDataQueryDto {
  @ApiPropertyOptional({
    default: 100,
    minimum: 1,
    maximum: 1000,
    description: 'Rows per page (the sample preview is at most 10)',
  })
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
  @Max(Number.MAX_SAFE_INTEGER)
  offset?: number;

  @ApiPropertyOptional({
    description: 'Column name (as in `columns[].name`) to sort by; a leading - sorts descending',
  })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  sort?: string;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'asc' })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.toLowerCase() : value))
  @IsIn(['asc', 'desc'])
  direction?: 'asc' | 'desc';

  @RowFilterParam(
    'Row filters, repeatable: column:operator:value with contains, equals, gt, gte, lt, lte, or ' +
      'column:empty / column:notempty (e.g. amount:gte:10, name:contains:berl). All must hold.',
  )
  filter?: string[];
}
