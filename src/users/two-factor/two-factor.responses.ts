import { ApiProperty } from '@nestjs/swagger';

export class TwoFactorStatusResponse {
  @ApiProperty()
  enabled: boolean;

  @ApiProperty()
  recovery_codes_left: number;
}

export class TwoFactorSetupResponse {
  @ApiProperty({ description: 'The secret as text, for apps that cannot scan' })
  secret: string;

  @ApiProperty({ example: 'otpauth://totp/...' })
  otpauth_url: string;

  @ApiProperty({ description: 'The otpauth URL as a QR code (PNG data URL)' })
  qr_code: string;
}

export class RecoveryCodesResponse {
  @ApiProperty({ type: String, isArray: true, description: 'Shown this once; each works once' })
  recovery_codes: string[];
}

/** The login answer when the password was right and the account asks for a code. */
export class TwoFactorRequiredResponse {
  @ApiProperty({ enum: [true] })
  two_factor_required: true;

  @ApiProperty()
  message: string;
}
