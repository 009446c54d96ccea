import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MailModule } from '../users/mail/mail.module';
import { OrganisationInvitation } from './entities/organisation-invitation.entity';
import { OrganisationMembership } from './entities/organisation-membership.entity';
import { Organisation } from './entities/organisation.entity';
import { InvitationsController } from './invitations.controller';
import { InvitationsService } from './invitations.service';
import { OrganisationAuditController } from './organisation-audit.controller';
import { OrganisationsController } from './organisations.controller';
import { OrganisationsService } from './organisations.service';

/**
 * Organisations: teams with members in roles (owner, admin, editor, viewer) and invitations by
 * e-mail. What an organisation owns, and the access gate's part in it, comes later; a user's
 * personal space is unchanged.
 */
@Module({
  imports: [
    MailModule,
    TypeOrmModule.forFeature([Organisation, OrganisationMembership, OrganisationInvitation]),
  ],
  controllers: [OrganisationsController, InvitationsController, OrganisationAuditController],
  providers: [OrganisationsService, InvitationsService],
  exports: [OrganisationsService],
})
export class OrganisationsModule {}
