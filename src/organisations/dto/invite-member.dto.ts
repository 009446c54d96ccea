import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsNotEmpty, MaxLength } from 'class-validator';
import { ORGANISATION_ROLES, OrganisationRole } from '../organisation-role';
import { ROLE_MESSAGE } from './change-role.dto';

export class InviteMemberDto {
  @ApiProperty({ example: 'grace@example.com' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsNotEmpty({ message: 'Email is required' })
  @IsEmail({}, { message: 'Please enter a valid email address' })
  @MaxLength(254, { message: 'Please enter a valid email address' })
  email: string;

  @ApiProperty({ enum: ORGANISATION_ROLES })
  @IsIn(ORGANISATION_ROLES, { message: ROLE_MESSAGE })
  role: OrganisationRole;
}
