import { ApiProperty } from '@nestjs/swagger';
import { ORGANISATION_ROLES, OrganisationRole } from '../organisation-role';

export class OrganisationResponse {
  @ApiProperty()
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  slug: string;

  @ApiProperty({ type: String, nullable: true })
  logo_url: string | null;

  @ApiProperty()
  created_at: string;

  /** The caller's role in it. */
  @ApiProperty({ enum: ORGANISATION_ROLES })
  my_role: OrganisationRole;
}

export class MemberResponse {
  @ApiProperty()
  user_id: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  email: string;

  @ApiProperty({ enum: ORGANISATION_ROLES })
  role: OrganisationRole;

  @ApiProperty()
  joined_at: string;
}

export class InviterResponse {
  @ApiProperty()
  id: string;

  @ApiProperty()
  name: string;
}

export class InvitationResponse {
  @ApiProperty()
  id: string;

  @ApiProperty()
  email: string;

  @ApiProperty({ enum: ORGANISATION_ROLES })
  role: OrganisationRole;

  @ApiProperty({ type: InviterResponse, nullable: true })
  invited_by: InviterResponse | null;

  @ApiProperty()
  created_at: string;

  @ApiProperty()
  expires_at: string;

  /** Past its expiry: the link no longer works; inviting the address again sends a fresh one. */
  @ApiProperty()
  expired: boolean;
}
