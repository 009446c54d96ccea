import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength, MinLength } from 'class-validator';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../auth/passwords';
import { INVALID_RESET_LINK_MESSAGE } from '../password-reset.messages';

export class ResetPasswordDto {
  @ApiProperty({ description: 'The token from the link in the e-mail' })
  @IsString({ message: INVALID_RESET_LINK_MESSAGE })
  @IsNotEmpty({ message: INVALID_RESET_LINK_MESSAGE })
  @MaxLength(128, { message: INVALID_RESET_LINK_MESSAGE })
  token: string;

  @ApiProperty({ minLength: PASSWORD_MIN_LENGTH })
  @IsString({ message: 'New password is required' })
  @MinLength(PASSWORD_MIN_LENGTH, {
    message: `Password must be at least ${PASSWORD_MIN_LENGTH} characters long`,
  })
  @MaxLength(PASSWORD_MAX_LENGTH, {
    message: `Password must be at most ${PASSWORD_MAX_LENGTH} characters long`,
  })
  new_password: string;
}
