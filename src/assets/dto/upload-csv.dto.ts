import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { CSV_DIALECT_SCHEMA_PROPERTIES, CsvColumnTypesFieldDto } from './csv-dialect-fields.dto';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateBy,
} from 'class-validator';

/** Highest price of a dataset, as for connectors. */
export const MAX_PRICE = 1_000_000;

function isAmount(value: unknown): boolean {
  return typeof value === 'string' && /^\s*\d+(\.\d{1,2})?\s*$/.test(value);
}

const TRUE_WORDS = ['true', '1', 'on', 'yes'];
const FALSE_WORDS = ['false', '0', 'off', 'no'];

/** Text with the white space around it removed; anything else stays and fails its own rule. */
export function toTrimmedText({ value }: { value: unknown }): unknown {
  return typeof value === 'string' ? value.trim() : value;
}

/**
 * A price as text: a JSON number becomes its text, blank becomes absent (free); anything else
 * (true, an object) stays as it is and fails the amount rule instead of becoming a number.
 */
function toAmountText({ value }: { value: unknown }): unknown {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  return value;
}

/**
 * The price rule of every upload (datasets and connectors): a non-negative amount with at most
 * two decimals, at most MAX_PRICE; the valid value arrives as trimmed text.
 */
export function IsPriceAmount(): PropertyDecorator {
  return applyDecorators(
    Transform(toAmountText),
    Matches(/^\d+(\.\d{1,2})?$/, {
      message: 'Price must be a non-negative amount with at most two decimals.',
    }),
    ValidateBy(
      // Judged only once the amount is well formed; the rule above speaks for anything else.
      {
        name: 'maxPrice',
        validator: { validate: (value) => !isAmount(value) || Number(value) <= MAX_PRICE },
      },
      { message: 'Price must be at most 1,000,000.' },
    ),
  ) as PropertyDecorator;
}

/** Multipart text fields arrive as strings: "true"/"false" become booleans, anything else stays and fails. */
export function toBoolean({ value }: { value: unknown }): unknown {
  if (typeof value !== 'string') return value;
  const word = value.trim().toLowerCase();
  if (TRUE_WORDS.includes(word)) return true;
  if (FALSE_WORDS.includes(word)) return false;
  return value;
}

/** "a, b, c" (or repeated fields) into a trimmed list without blanks or duplicates. */
export function toKeywordList({ value }: { value: unknown }): unknown {
  const entries = (Array.isArray(value) ? value : [value]).flatMap((entry) =>
    typeof entry === 'string' ? entry.split(',') : [entry],
  );
  const words = entries
    .map((entry) => (typeof entry === 'string' ? entry.trim() : entry))
    .filter((entry) => entry !== '');
  return [...new Set(words)];
}

/** The text fields of `POST assets/upload-csv` (the file itself travels in the `file` part, see UPLOAD_CSV_SCHEMA). */
export class UploadCsvDto extends CsvColumnTypesFieldDto {
  @ApiProperty({ description: 'Required' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  title?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  description?: string;

  @ApiPropertyOptional({ example: 'Finance' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  category?: string;

  @ApiPropertyOptional({ description: 'Comma-separated', example: 'stocks, prices' })
  @IsOptional()
  @Transform(toKeywordList)
  @IsArray()
  @ArrayMaxSize(30)
  @IsString({ each: true })
  @MaxLength(60, { each: true })
  keywords?: string[];

  @ApiPropertyOptional({
    description: 'Non-negative, at most two decimals and 1,000,000; 0 or empty means free',
    example: '19.99',
  })
  @IsOptional()
  @IsPriceAmount()
  price?: string;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean({ message: 'is_public must be true or false' })
  is_public?: boolean;

  @ApiPropertyOptional({
    example: 'CC-BY-4.0',
    description:
      'An SPDX licence identifier (CC-BY-4.0, CC-BY-SA-4.0, CC0-1.0, ODbL-1.0, ODC-By-1.0, PDDL-1.0, OGL-UK-3.0, MIT, Apache-2.0), stored as that id also when given as its title or address; any other text is kept as the owner words it',
  })
  @IsOptional()
  @Transform(toTrimmedText)
  @IsString()
  @MaxLength(500)
  licence?: string;
}

/** OpenAPI description of the whole multipart form, file included. */
export const UPLOAD_CSV_SCHEMA = {
  type: 'object',
  required: ['file', 'title'],
  properties: {
    file: {
      type: 'string',
      format: 'binary',
      description:
        'The .csv file (UTF-8, UTF-16 with BOM or Windows-1252; comma, semicolon, tab or pipe separated). ' +
        'The other fields must come before it',
    },
    ...CSV_DIALECT_SCHEMA_PROPERTIES,
    column_types: { type: 'string', example: 'text,numeric,date', description: 'One type per column' },
    title: { type: 'string' },
    description: { type: 'string' },
    category: { type: 'string', example: 'Finance' },
    keywords: { type: 'string', description: 'Comma-separated' },
    price: {
      type: 'string',
      example: '19.99',
      description: 'Non-negative, at most two decimals; empty means free',
    },
    is_public: { type: 'boolean', default: true },
    licence: { type: 'string', example: 'CC-BY-4.0' },
  },
};
