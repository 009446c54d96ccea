import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import {
  DATE_ORDERS,
  DECIMAL_MARKS,
  DELIMITERS,
  ENCODINGS,
  THOUSANDS_SEPARATORS,
} from '../../formats/readers/csv-dialect';

/**
 * The form fields that say how the CSV is written. They are read (and refused when wrong) before
 * the file, by dialectChoiceFrom; here they are declared so the form may carry them. They must
 * come before the `file` part of the form.
 */
export class CsvDialectFieldsDto {
  @ApiPropertyOptional({ enum: DELIMITERS, description: 'Detected from the header when absent' })
  @IsOptional()
  @IsIn(DELIMITERS)
  delimiter?: string;

  @ApiPropertyOptional({
    enum: ENCODINGS,
    default: 'utf-8',
    description: 'UTF-16 is also recognised by its BOM',
  })
  @IsOptional()
  @IsIn(ENCODINGS)
  encoding?: string;

  @ApiPropertyOptional({ enum: DECIMAL_MARKS, default: '.' })
  @IsOptional()
  @IsIn(DECIMAL_MARKS)
  decimal_mark?: string;

  @ApiPropertyOptional({ enum: THOUSANDS_SEPARATORS, default: '' })
  @IsOptional()
  @IsIn(THOUSANDS_SEPARATORS)
  thousands_separator?: string;

  @ApiPropertyOptional({ enum: DATE_ORDERS, default: 'ymd', description: 'Order of dates like 01/02/2024' })
  @IsOptional()
  @IsIn(DATE_ORDERS)
  date_order?: string;

  @ApiPropertyOptional({ description: 'An .xlsx file: the sheet to load (the first one when absent)' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  sheet?: string;
}

/** The dialect fields in the OpenAPI description of a multipart form. */
export const CSV_DIALECT_SCHEMA_PROPERTIES = {
  delimiter: { type: 'string', enum: [...DELIMITERS], description: 'Detected from the header when absent' },
  encoding: { type: 'string', enum: [...ENCODINGS], default: 'utf-8' },
  decimal_mark: { type: 'string', enum: [...DECIMAL_MARKS], default: '.' },
  thousands_separator: { type: 'string', enum: [...THOUSANDS_SEPARATORS], default: '' },
  date_order: { type: 'string', enum: [...DATE_ORDERS], default: 'ymd' },
  sheet: { type: 'string', description: 'An .xlsx file: the sheet to load (the first one when absent)' },
};

/** OpenAPI description of the preview's multipart form. */
export const UPLOAD_PREVIEW_SCHEMA = {
  type: 'object',
  required: ['file'],
  properties: {
    file: {
      type: 'string',
      format: 'binary',
      description:
        'The .csv file, or its first megabytes (only the first 2 MB are read); the other fields come before it',
    },
    ...CSV_DIALECT_SCHEMA_PROPERTIES,
  },
};

/** The column types field of a new dataset's upload. */
export class CsvColumnTypesFieldDto extends CsvDialectFieldsDto {
  @ApiPropertyOptional({
    description:
      'One type per column, comma-separated (integer, numeric, boolean, date, timestamp, timestamptz, text); ' +
      'every value must fit. Guessed from the values when absent',
    example: 'text,numeric,date',
  })
  @IsOptional()
  @IsString()
  column_types?: string;
}
