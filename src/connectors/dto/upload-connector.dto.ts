import { Transform } from 'class-transformer';
import { IsBoolean, IsDefined, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsPriceAmount, toBoolean, toTrimmedText } from '../../assets/dto/upload-csv.dto';
import { IsCoverImage } from '../../blog/dto/is-cover-image.validator';

/** The fields of `POST connectors/upload`, with the same rules as a dataset upload's. */
export class UploadConnectorDto {
  @Transform(toTrimmedText)
  @IsString({ message: 'Title is required' })
  @IsNotEmpty({ message: 'Title is required' })
  @MaxLength(200)
  title: string;

  @IsOptional()
  @IsString()
  @MaxLength(5000)
  description?: string;

  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean({ message: 'is_public must be true or false' })
  is_public?: boolean;

  @IsOptional()
  @IsPriceAmount()
  price?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  category?: string;

  /** Shown as the card's picture: a web address or a path on this site, never a script. */
  @IsOptional()
  @IsCoverImage({ message: 'Image must be an http(s) URL or a path on this site starting with /' })
  @MaxLength(2000)
  image?: string;

  /** The connector DSL document (object, or its JSON text). */
  @IsDefined({ message: 'spec is required' })
  spec: unknown;
}
