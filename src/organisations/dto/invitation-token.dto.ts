import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { INVALID_INVITATION } from '../organisations.messages';

export class InvitationTokenDto {
  @ApiProperty({ description: 'The token from the link in the invitation e-mail' })
  @IsString({ message: INVALID_INVITATION })
  @IsNotEmpty({ message: INVALID_INVITATION })
  @MaxLength(128, { message: INVALID_INVITATION })
  token: string;
}
