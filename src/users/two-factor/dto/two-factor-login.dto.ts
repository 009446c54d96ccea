import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/** The second login step: a code from the authenticator app, or one recovery code. */
export class TwoFactorLoginDto {
  @ApiPropertyOptional({ example: '123456' })
  @IsOptional()
  @IsString({ message: 'Code must be text' })
  @MaxLength(16, { message: 'Invalid code' })
  code?: string;

  @ApiPropertyOptional({ example: 'k3xq-9fmz-a2pt-7wne' })
  @IsOptional()
  @IsString({ message: 'Recovery code must be text' })
  @MaxLength(64, { message: 'Invalid code' })
  recovery_code?: string;
}
