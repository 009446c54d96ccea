import { ApiProperty } from '@nestjs/swagger';

/** One active session of the caller, as the Sessions list on /account shows it. */
export class SessionResponse {
  @ApiProperty({ description: 'An opaque id for signing this session out (not the session cookie)' })
  id: string;

  @ApiProperty({ example: 'Chrome 140 on Linux' })
  browser: string;

  @ApiProperty({ description: 'The address the session was last seen from' })
  ip: string;

  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  last_seen_at: string | null;

  @ApiProperty({ description: 'Whether this is the session making the request' })
  current: boolean;
}
