import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';

export class SessionIdParam {
  @ApiProperty({ description: 'The id the Sessions list gave' })
  @Matches(/^[0-9a-f]{64}$/, { message: 'Session not found' })
  id: string;
}
