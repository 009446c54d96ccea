import { ApiProperty } from '@nestjs/swagger';
import { AUDIT_EVENT_TYPES } from '../audit-event-type';
import type { AuditDetail } from '../audit-event-type';

/** The credential an event was done with; the id is a session's public id or a named token's id. */
export class AuditCredentialResponse {
  @ApiProperty({ enum: ['session', 'api_key', 'api_token', 'none'] })
  kind: string;

  @ApiProperty({ type: String, nullable: true })
  id: string | null;
}

/** One entry of the audit log. */
export class AuditEventResponse {
  @ApiProperty({ description: 'Increasing with time; pass the last one as `before` for the next page' })
  id: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Who acted: in the personal log the caller; in an organisation’s, one of its members',
  })
  user_id: string | null;

  @ApiProperty({ enum: AUDIT_EVENT_TYPES })
  type: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'Ids and small facts, never secrets',
  })
  detail: AuditDetail;

  @ApiProperty({ type: AuditCredentialResponse })
  credential: AuditCredentialResponse;

  @ApiProperty({ type: String, nullable: true, description: 'Client address as the app resolves it' })
  ip: string | null;

  @ApiProperty({ type: String, nullable: true })
  user_agent: string | null;

  @ApiProperty()
  occurred_at: string;
}
