import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { IsLogoUrl } from './is-logo-url.validator';

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SLUG_MIN_LENGTH = 3;
export const SLUG_MAX_LENGTH = 48;
export const NAME_MAX_LENGTH = 100;

const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class CreateOrganisationDto {
  @ApiProperty({ example: 'Acme Analytics', maxLength: NAME_MAX_LENGTH })
  @Transform(trimmed)
  @IsString({ message: 'Name is required' })
  @IsNotEmpty({ message: 'Name is required' })
  @MaxLength(NAME_MAX_LENGTH, { message: `Name must be at most ${NAME_MAX_LENGTH} characters long` })
  name: string;

  @ApiProperty({ example: 'acme-analytics', pattern: SLUG_PATTERN.source })
  @Transform(trimmed)
  @IsString({ message: 'Slug is required' })
  @IsNotEmpty({ message: 'Slug is required' })
  @MinLength(SLUG_MIN_LENGTH, { message: `Slug must be at least ${SLUG_MIN_LENGTH} characters long` })
  @MaxLength(SLUG_MAX_LENGTH, { message: `Slug must be at most ${SLUG_MAX_LENGTH} characters long` })
  @Matches(SLUG_PATTERN, {
    message: 'Slug may contain only lower-case letters, digits and single hyphens between them',
  })
  slug: string;

  @ApiPropertyOptional({ example: 'https://example.com/logo.png', nullable: true })
  @IsOptional()
  @IsLogoUrl()
  logo_url?: string | null;
}
