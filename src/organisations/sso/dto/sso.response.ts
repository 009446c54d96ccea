import { ApiProperty } from '@nestjs/swagger';

export class SsoDomainResponse {
  @ApiProperty()
  id: string;

  @ApiProperty()
  domain: string;

  /** The address the verification link was sent to. */
  @ApiProperty()
  verification_email: string;

  @ApiProperty()
  verified: boolean;

  @ApiProperty({ type: String, nullable: true })
  verified_at: string | null;
}

/** The provider as admins see it: never the client secret, only whether one is set. */
export class SsoSettingsResponse {
  @ApiProperty({ type: String, nullable: true })
  issuer: string | null;

  @ApiProperty({ type: String, nullable: true })
  client_id: string | null;

  @ApiProperty()
  client_secret_set: boolean;

  @ApiProperty()
  required: boolean;

  @ApiProperty({ type: SsoDomainResponse, isArray: true })
  domains: SsoDomainResponse[];
}

export class SsoStartResponse {
  /** Where the browser goes next: the provider's authorization endpoint. */
  @ApiProperty()
  authorization_url: string;
}
