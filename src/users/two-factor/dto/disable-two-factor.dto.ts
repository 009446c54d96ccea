import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { PASSWORD_MAX_LENGTH } from '../../auth/passwords';
import { TwoFactorLoginDto } from './two-factor-login.dto';

/** Turning two-factor sign-in off: the password and a code (or a recovery code). */
export class DisableTwoFactorDto extends TwoFactorLoginDto {
  @ApiProperty()
  @IsString({ message: 'Password is required' })
  @IsNotEmpty({ message: 'Password is required' })
  @MaxLength(PASSWORD_MAX_LENGTH, { message: 'Password is incorrect' })
  password: string;
}
