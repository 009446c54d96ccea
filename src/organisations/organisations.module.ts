import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QueryModule } from '../query/query.module';
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
 * e-mail. What an organisation owns and holds is read by its members through the AccessGate
 * (src/access); a user's personal space is unchanged.
 */
@Module({
  imports: [
    MailModule,
    QueryModule,
    TypeOrmModule.forFeature([Organisation, OrganisationMembership, OrganisationInvitation]),
  ],
  controllers: [OrganisationsController, InvitationsController, OrganisationAuditController],
  providers: [OrganisationsService, InvitationsService],
  exports: [OrganisationsService],
})
export class OrganisationsModule {}
