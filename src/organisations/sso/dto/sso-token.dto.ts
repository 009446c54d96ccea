import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class DomainVerificationDto {
  @ApiProperty()
  @IsString({ message: 'The verification link is invalid.' })
  @IsNotEmpty({ message: 'The verification link is invalid.' })
  @MaxLength(200, { message: 'The verification link is invalid.' })
  token: string;
}
