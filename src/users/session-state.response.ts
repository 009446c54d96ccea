import { ApiProperty } from '@nestjs/swagger';
import { MeResponse } from './me-response';

/** GET users/session: who the session belongs to, null for a visitor. */
export class SessionStateResponse {
  @ApiProperty({ type: MeResponse, nullable: true })
  user: MeResponse | null;
}
