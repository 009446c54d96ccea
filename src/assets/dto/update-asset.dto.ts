import { ApiPropertyOptional } from '@nestjs/swagger';
import { CSV_DIALECT_SCHEMA_PROPERTIES, CsvDialectFieldsDto } from './csv-dialect-fields.dto';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { OptionalNotNull } from '../../common/decorators/optional-not-null.decorator';
import { IsCoverImage } from '../../blog/dto/is-cover-image.validator';
import { IsPriceAmount, toBoolean, toKeywordList, toTrimmedText } from './upload-csv.dto';

/**
 * `PATCH assets/{id}`: the owner changes what describes a dataset, with the rules of the upload.
 * Only the fields sent change; an empty body changes nothing.
 */
export class UpdateAssetDto {
  @ApiPropertyOptional({ maxLength: 200 })
  @OptionalNotNull()
  @Transform(toTrimmedText)
  @IsString({ message: 'Title is required' })
  @IsNotEmpty({ message: 'Title is required' })
  @MaxLength(200)
  title?: string;

  @ApiPropertyOptional({ maxLength: 10_000 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(10_000)
  description?: string;

  @ApiPropertyOptional({ example: 'Finance', maxLength: 100 })
  @OptionalNotNull()
  @Transform(toTrimmedText)
  @IsString()
  @MaxLength(100)
  category?: string;

  @ApiPropertyOptional({ type: [String], description: 'A list, or comma-separated text' })
  @OptionalNotNull()
  @Transform(toKeywordList)
  @IsArray()
  @ArrayMaxSize(30)
  @IsString({ each: true })
  @MaxLength(60, { each: true })
  keywords?: string[];

  @ApiPropertyOptional({
    oneOf: [{ type: 'number' }, { type: 'string' }],
    description: 'Non-negative, at most two decimals and 1,000,000; 0 means free',
  })
  @OptionalNotNull()
  @IsPriceAmount()
  price?: string;

  @ApiPropertyOptional({
    enum: ['one_off', 'month', 'year'],
    description: "How `price` is charged: once ('one_off'), or each month or year as a subscription",
  })
  @OptionalNotNull()
  @IsIn(['one_off', 'month', 'year'], { message: "billing_interval must be 'one_off', 'month' or 'year'" })
  billing_interval?: 'one_off' | 'month' | 'year';

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 90,
    description: 'Free days before a new subscription is charged',
  })
  @OptionalNotNull()
  @IsInt({ message: 'trial_days must be a whole number of days from 0 to 90' })
  @Min(0, { message: 'trial_days must be a whole number of days from 0 to 90' })
  @Max(90, { message: 'trial_days must be a whole number of days from 0 to 90' })
  trial_days?: number;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @Transform(toBoolean)
  @IsBoolean({ message: 'is_public must be true or false' })
  is_public?: boolean;

  @ApiPropertyOptional({ maxLength: 200 })
  @OptionalNotNull()
  @Transform(toTrimmedText)
  @IsString()
  @MaxLength(200)
  source?: string;

  @ApiPropertyOptional({
    maxLength: 500,
    example: 'CC-BY-4.0',
    description:
      'An SPDX licence identifier (CC-BY-4.0, CC-BY-SA-4.0, CC0-1.0, ODbL-1.0, ODC-By-1.0, PDDL-1.0, OGL-UK-3.0, MIT, Apache-2.0), stored as that id also when given as its title or address; any other text is kept as the owner words it',
  })
  @OptionalNotNull()
  @Transform(toTrimmedText)
  @IsString()
  @MaxLength(500)
  licence?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 2000 })
  @IsOptional()
  @IsCoverImage({ message: 'Image must be an http(s) URL or a path on this site starting with /' })
  @MaxLength(2000)
  image?: string | null;

  /** Column name → description; a blank description removes it. Unknown columns are refused. */
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @OptionalNotNull()
  @IsObject({ message: 'dictionary must be an object of column name to description' })
  dictionary?: Record<string, unknown>;
}

export const REFRESH_MODES = ['replace', 'append'] as const;

/** The text field of `POST assets/{id}/refresh` besides the file. */
export class RefreshAssetDto extends CsvDialectFieldsDto {
  @ApiPropertyOptional({ enum: REFRESH_MODES, default: 'replace' })
  @OptionalNotNull()
  @IsIn(REFRESH_MODES, { message: 'mode must be replace or append' })
  mode?: (typeof REFRESH_MODES)[number];
}

export const REFRESH_CSV_SCHEMA = {
  type: 'object',
  required: ['file'],
  properties: {
    file: {
      type: 'string',
      format: 'binary',
      description:
        "The .csv file, with the same header as the dataset; read in the dataset's dialect unless fields choose another. " +
        'The other fields must come before it',
    },
    mode: { type: 'string', enum: [...REFRESH_MODES], default: 'replace' },
    ...CSV_DIALECT_SCHEMA_PROPERTIES,
  },
};
