import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { ORGANISATION_ROLES, OrganisationRole } from '../organisation-role';

export const ROLE_MESSAGE = `Role must be one of: ${ORGANISATION_ROLES.join(', ')}`;

export class ChangeRoleDto {
  @ApiProperty({ enum: ORGANISATION_ROLES })
  @IsIn(ORGANISATION_ROLES, { message: ROLE_MESSAGE })
  role: OrganisationRole;
}
