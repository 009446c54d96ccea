import { ApiProperty } from '@nestjs/swagger';

/** An answer that only says what happened, e.g. 'Logged out'. */
export class MessageResponse {
  @ApiProperty()
  message: string;
}
