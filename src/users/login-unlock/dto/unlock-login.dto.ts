import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { INVALID_UNLOCK_LINK_MESSAGE } from '../login-unlock.messages';

export class UnlockLoginDto {
  @ApiProperty({ description: 'The token from the link in the e-mail' })
  @IsString({ message: INVALID_UNLOCK_LINK_MESSAGE })
  @IsNotEmpty({ message: INVALID_UNLOCK_LINK_MESSAGE })
  @MaxLength(128, { message: INVALID_UNLOCK_LINK_MESSAGE })
  token: string;
}
