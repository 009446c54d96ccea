import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class EnableTwoFactorDto {
  @ApiProperty({ example: '123456', description: 'The first code the authenticator app shows' })
  @IsString({ message: 'Code is required' })
  @IsNotEmpty({ message: 'Code is required' })
  @MaxLength(16, { message: 'Invalid code' })
  code: string;
}
