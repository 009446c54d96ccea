import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsOptional, IsString, MaxLength } from 'class-validator';

/** Most row filters one request may combine, and the longest one (column name, operator and value). */
const MAX_FILTERS = 20;
const MAX_FILTER_LENGTH = 1200;

/**
 * A repeatable `filter=column:operator:value` query parameter, as the grid and the stream links take
 * it; what each filter means is checked against the table's columns by the data-table row filters.
 */
export function RowFilterParam(description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: [String], description }),
    IsOptional(),
    Transform(({ value }) => (Array.isArray(value) ? value : [value])),
    ArrayMaxSize(MAX_FILTERS, { message: `At most ${MAX_FILTERS} filters can be combined.` }),
    IsString({ each: true }),
    MaxLength(MAX_FILTER_LENGTH, { each: true }),
  );
}
