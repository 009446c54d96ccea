import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { TOKEN_SCOPES } from '../token-scopes';
import type { TokenScope } from '../token-scopes';

export const TOKEN_NAME_MAX_LENGTH = 100;
export const TOKEN_MAX_DAYS = 3650;

export class CreateApiTokenDto {
  @ApiProperty({ maxLength: TOKEN_NAME_MAX_LENGTH, description: 'What the token is for, e.g. "Power BI"' })
  @IsString({ message: 'A token name is required' })
  @MinLength(1, { message: 'A token name is required' })
  @MaxLength(TOKEN_NAME_MAX_LENGTH, {
    message: `A token name has at most ${TOKEN_NAME_MAX_LENGTH} characters`,
  })
  name: string;

  @ApiProperty({ enum: TOKEN_SCOPES, isArray: true, description: 'stream: streams and OData; query: SQL' })
  @IsArray({ message: 'Choose at least one scope' })
  @ArrayMinSize(1, { message: 'Choose at least one scope' })
  @ArrayUnique({ message: 'Each scope once' })
  @IsIn(TOKEN_SCOPES, { each: true, message: `Scopes are ${TOKEN_SCOPES.join(' and ')}` })
  scopes: TokenScope[];

  @ApiPropertyOptional({
    minimum: 1,
    maximum: TOKEN_MAX_DAYS,
    description: 'Days until it expires; none: never',
  })
  @IsOptional()
  @IsInt({ message: 'Expiry is a whole number of days' })
  @Min(1, { message: `Expiry is between 1 and ${TOKEN_MAX_DAYS} days` })
  @Max(TOKEN_MAX_DAYS, { message: `Expiry is between 1 and ${TOKEN_MAX_DAYS} days` })
  expires_in_days?: number;
}
