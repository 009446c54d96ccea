import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class OutboxQueryDto {
  @ApiProperty({ description: 'Recipient whose messages to list (case-insensitive)' })
  @IsString()
  @IsNotEmpty({ message: 'email is required' })
  @MaxLength(254)
  email: string;
}
