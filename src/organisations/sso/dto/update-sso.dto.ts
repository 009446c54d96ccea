import { ApiProperty, PartialType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsNotEmpty, IsString, IsUrl, MaxLength } from 'class-validator';

const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class SsoSettingsDto {
  /** Checked further against the issuer policy (https; loopback http outside production only). */
  @ApiProperty({ example: 'https://login.example.com', maxLength: 2000 })
  @Transform(trimmed)
  @IsString({ message: 'Issuer must be a URL' })
  @MaxLength(2000, { message: 'Issuer must be at most 2000 characters long' })
  @IsUrl(
    { protocols: ['https', 'http'], require_protocol: true, require_tld: false },
    { message: 'Issuer must be a URL' },
  )
  issuer: string;

  @ApiProperty({ example: 'marketplace', maxLength: 255 })
  @Transform(trimmed)
  @IsString({ message: 'Client id is required' })
  @IsNotEmpty({ message: 'Client id is required' })
  @MaxLength(255, { message: 'Client id must be at most 255 characters long' })
  client_id: string;

  @ApiProperty({ description: 'Write-only: answers tell only whether one is set.', maxLength: 1000 })
  @IsString({ message: 'Client secret is required' })
  @IsNotEmpty({ message: 'Client secret is required' })
  @MaxLength(1000, { message: 'Client secret must be at most 1000 characters long' })
  client_secret: string;

  @ApiProperty({ description: 'Members at the verified domains must sign in with SSO (owners excepted).' })
  @IsBoolean({ message: 'Required must be true or false' })
  required: boolean;
}

/**
 * Any of the provider's settings. The first configuration needs issuer, client id and secret; a
 * secret left out keeps the stored one. Sent as null, a field is refused like any wrong value
 * (nothing here is cleared: turning SSO off is `required: false`).
 */
export class UpdateSsoDto extends PartialType(SsoSettingsDto, { skipNullProperties: false }) {}
