import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsDefined, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsPriceAmount, toBoolean, toTrimmedText } from '../../assets/dto/upload-csv.dto';
import { IsCoverImage } from '../../blog/dto/is-cover-image.validator';

/** The fields of `POST connectors/upload`, with the same rules as a dataset upload's. */
export class UploadConnectorDto {
  /** Empty or left out: the spec's own title (one of the two is required). */
  @ApiPropertyOptional({ maxLength: 200, description: "Empty or left out: the spec's title" })
  @Transform(toTrimmedText)
  @IsOptional()
  @IsString({ message: 'Title must be text' })
  @MaxLength(200)
  title?: string;

  /** Empty or left out: the spec's own description. */
  @ApiPropertyOptional({ maxLength: 5000, description: "Empty or left out: the spec's description" })
  @IsOptional()
  @IsString()
  @MaxLength(5000)
  description?: string;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean({ message: 'is_public must be true or false' })
  is_public?: boolean;

  @ApiPropertyOptional({
    oneOf: [{ type: 'number' }, { type: 'string' }],
    description:
      'An amount from 0 to 1,000,000 with at most two decimals (a number or its text); 0 means free',
  })
  @IsOptional()
  @IsPriceAmount()
  price?: number | string;

  @ApiPropertyOptional({ maxLength: 100 })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  category?: string;

  /** Shown as the card's picture: a web address or a path on this site, never a script. */
  @ApiPropertyOptional({ maxLength: 2000 })
  @IsOptional()
  @IsCoverImage({ message: 'Image must be an http(s) URL or a path on this site starting with /' })
  @MaxLength(2000)
  image?: string;

  /** The connector DSL document (object, or its JSON text). */
  @ApiProperty({
    oneOf: [{ type: 'object', additionalProperties: true }, { type: 'string' }],
    description: 'The connector DSL document, as an object or its JSON text',
  })
  @IsDefined({ message: 'spec is required' })
  spec: unknown;
}
