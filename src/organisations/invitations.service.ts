import { randomBytes } from 'node:crypto';
import {
  ConflictException,
  ForbiddenException,
  GoneException,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  ServiceUnavailableException,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { sha256Hex } from '../common/crypto/secret-box';
import { RateLimiterService, RateLimitRule } from '../common/rate-limit/rate-limiter.service';
import { isUuid } from '../common/uuid';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Sql, sqlOn } from '../database/sql';
import { MailService } from '../users/mail/mail.service';
import { InvitationResponse, OrganisationResponse } from './dto/organisation.response';
import { InviteMemberDto } from './dto/invite-member.dto';
import { lockedRoleOf, requireManager, roleOf } from './membership-rules';
import { organisationInvitationMail } from './organisation-invitation-mail';
import { OrganisationRole } from './organisation-role';
import {
  ALREADY_MEMBER,
  INVALID_INVITATION,
  INVITATION_ANSWERED,
  INVITATION_EXPIRED,
  INVITATION_NOT_FOUND,
  INVITATION_NOT_SENT,
  INVITATION_OTHER_ADDRESS,
  INVITATION_REVOKED,
  ONLY_OWNERS_MANAGE_OWNERS,
  TOO_MANY_INVITATIONS,
} from './organisations.messages';
import { OrganisationsService } from './organisations.service';

export const INVITATION_LIFETIME_DAYS = 7;
/** Invitations one user may send per hour, across organisations: the app must not become a mailer. */
export const INVITATIONS_PER_USER: RateLimitRule = { limit: 50, windowSeconds: 60 * 60 };

interface InvitationRow {
  id: string;
  organisation_id: string;
  email: string;
  role: OrganisationRole;
  state: 'pending' | 'accepted' | 'declined' | 'revoked';
  inviter_id: string | null;
  inviter_name: string | null;
  created_at: Date;
  expires_at: Date;
  expired: boolean;
}

const INVITATION_COLUMNS = `i.id, i.organisation_id, i.email, i.role, i.state, i.created_at, i.expires_at,
  i.expires_at <= now() AS expired, u.id AS inviter_id, u.name AS inviter_name`;

/** Invitations by e-mail: sent and revoked by owners and admins, answered by the addressee. */
@Injectable()
export class InvitationsService {
  private readonly logger = new Logger(InvitationsService.name);

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly organisations: OrganisationsService,
    private readonly mail: MailService,
    private readonly rateLimiter: RateLimiterService,
    private readonly audit: AuditService,
  ) {}

  /**
   * Mails a link valid for 7 days. Inviting an address that has a pending invitation sends a
   * fresh link (with the new role) and the old one stops working.
   */
  async invite(
    caller: AuthenticatedUser,
    organisationId: string,
    input: InviteMemberDto,
  ): Promise<InvitationResponse> {
    await this.rateLimiter.consume(
      `organisation-invite:user:${caller.id}`,
      INVITATIONS_PER_USER,
      TOO_MANY_INVITATIONS,
    );
    const token = randomBytes(32).toString('base64url');
    const { invitation, organisationName } = await this.dataSource.transaction(async (manager) => {
      const sql = sqlOn(manager);
      const role = await lockedRoleOf(sql, organisationId, caller.id);
      requireManager(role);
      if (input.role === 'owner' && role !== 'owner') throw new ForbiddenException(ONLY_OWNERS_MANAGE_OWNERS);
      const { rows: members } = await sql(
        `SELECT 1 FROM organisation_memberships m JOIN users u ON u.id = m.user_id
          WHERE m.organisation_id = $1 AND lower(u.email) = lower($2)`,
        [organisationId, input.email],
      );
      if (members.length > 0) throw new ConflictException(ALREADY_MEMBER);
      const values = [
        organisationId,
        input.email,
        input.role,
        sha256Hex(token),
        caller.id,
        `${INVITATION_LIFETIME_DAYS} days`,
      ];
      const renewed = await sql<{ id: string }>(
        `UPDATE organisation_invitations
            SET role = $3, token_hash = $4, invited_by = $5, created_at = now(), expires_at = now() + $6::interval
          WHERE organisation_id = $1 AND lower(email) = lower($2) AND state = 'pending'
          RETURNING id`,
        values,
      );
      const { rows } =
        renewed.rows.length > 0
          ? renewed
          : await sql<{ id: string }>(
              `INSERT INTO organisation_invitations (organisation_id, email, role, token_hash, invited_by, expires_at)
               VALUES ($1, $2, $3, $4, $5, now() + $6::interval) RETURNING id`,
              values,
            );
      await this.audit.recordIn(sql, 'organisation_member_invited', {
        organisation_id: organisationId,
        invitation_id: rows[0].id,
        role: input.role,
      });
      const { rows: names } = await sql<{ name: string }>(`SELECT name FROM organisations WHERE id = $1`, [
        organisationId,
      ]);
      return { invitation: await this.readInvitation(sql, rows[0].id), organisationName: names[0].name };
    });
    await this.mail
      .send(
        organisationInvitationMail({
          to: invitation.email,
          inviterName: caller.name,
          organisationName,
          role: invitation.role,
          appOrigin: this.config.appOrigin,
          token,
          lifetimeDays: INVITATION_LIFETIME_DAYS,
        }),
      )
      .catch(async (error: unknown) => {
        // A link that reached nobody must not wait as pending: the admin is told to try again.
        this.logger.error(`Invitation mail could not be sent: ${String(error)}`);
        await this.dataSource.query(
          `UPDATE organisation_invitations SET state = 'revoked', answered_at = now() WHERE id = $1`,
          [invitation.id],
        );
        throw new ServiceUnavailableException(INVITATION_NOT_SENT);
      });
    return invitation;
  }

  /** Pending invitations (expired ones too, marked), newest first; owners and admins. */
  async pending(callerId: string, organisationId: string): Promise<InvitationResponse[]> {
    const sql = sqlOn(this.dataSource);
    requireManager(await roleOf(sql, organisationId, callerId));
    const { rows } = await sql<InvitationRow>(
      `SELECT ${INVITATION_COLUMNS} FROM organisation_invitations i LEFT JOIN users u ON u.id = i.invited_by
        WHERE i.organisation_id = $1 AND i.state = 'pending' ORDER BY i.created_at DESC, i.id`,
      [organisationId],
    );
    return rows.map(toInvitation);
  }

  async revoke(callerId: string, organisationId: string, invitationId: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const sql = sqlOn(manager);
      requireManager(await lockedRoleOf(sql, organisationId, callerId));
      const { rows } = isUuid(invitationId)
        ? await sql(
            `UPDATE organisation_invitations SET state = 'revoked', answered_at = now()
              WHERE id = $1 AND organisation_id = $2 AND state = 'pending' RETURNING id`,
            [invitationId, organisationId],
          )
        : { rows: [] };
      if (rows.length === 0) throw new NotFoundException(INVITATION_NOT_FOUND);
    });
  }

  /** Joins with the invitation's role; answers the organisation as the new member sees it. */
  async accept(caller: AuthenticatedUser, token: string): Promise<OrganisationResponse> {
    const organisationId = await this.answer(caller, token, 'accepted', async (sql, invitation) => {
      const { rows } = await sql(
        `SELECT 1 FROM organisation_memberships WHERE organisation_id = $1 AND user_id = $2`,
        [invitation.organisation_id, caller.id],
      );
      if (rows.length > 0) throw new ConflictException(ALREADY_MEMBER);
      await sql(`INSERT INTO organisation_memberships (organisation_id, user_id, role) VALUES ($1, $2, $3)`, [
        invitation.organisation_id,
        caller.id,
        invitation.role,
      ]);
      await this.audit.recordIn(sql, 'organisation_member_joined', {
        organisation_id: invitation.organisation_id,
        invitation_id: invitation.id,
        role: invitation.role,
      });
    });
    return this.organisations.get(caller.id, organisationId);
  }

  async decline(caller: AuthenticatedUser, token: string): Promise<void> {
    await this.answer(caller, token, 'declined', async () => undefined);
  }

  /**
   * The checks both answers share, in an order that tells each caller only what they may know:
   * an unknown link is invalid; a link for another address says only that; then whether it was
   * withdrawn, used or has expired. The organisation is locked before the invitation, as every
   * membership change does, so parallel answers and invitations cannot deadlock.
   */
  private async answer(
    caller: AuthenticatedUser,
    token: string,
    state: 'accepted' | 'declined',
    then: (sql: Sql, invitation: InvitationRow) => Promise<void>,
  ): Promise<string> {
    const tokenHash = sha256Hex(token);
    return this.dataSource.transaction(async (manager) => {
      const sql = sqlOn(manager);
      const { rows: found } = await sql<{ organisation_id: string }>(
        `SELECT organisation_id FROM organisation_invitations WHERE token_hash = $1`,
        [tokenHash],
      );
      if (!found[0]) throw new NotFoundException(INVALID_INVITATION);
      await sql(`SELECT 1 FROM organisations WHERE id = $1 FOR UPDATE`, [found[0].organisation_id]);
      const { rows } = await sql<InvitationRow>(
        `SELECT ${INVITATION_COLUMNS} FROM organisation_invitations i LEFT JOIN users u ON u.id = i.invited_by
          WHERE i.token_hash = $1 FOR UPDATE OF i`,
        [tokenHash],
      );
      const invitation = rows[0];
      if (!invitation) throw new NotFoundException(INVALID_INVITATION);
      if (invitation.email.toLowerCase() !== caller.email.toLowerCase()) {
        throw new ForbiddenException(INVITATION_OTHER_ADDRESS);
      }
      if (invitation.state === 'revoked') throw new GoneException(INVITATION_REVOKED);
      if (invitation.state !== 'pending') throw new ConflictException(INVITATION_ANSWERED);
      if (invitation.expired) throw new GoneException(INVITATION_EXPIRED);
      await then(sql, invitation);
      await sql(`UPDATE organisation_invitations SET state = $2, answered_at = now() WHERE id = $1`, [
        invitation.id,
        state,
      ]);
      return invitation.organisation_id;
    });
  }

  private async readInvitation(sql: Sql, id: string): Promise<InvitationResponse> {
    const { rows } = await sql<InvitationRow>(
      `SELECT ${INVITATION_COLUMNS} FROM organisation_invitations i LEFT JOIN users u ON u.id = i.invited_by
        WHERE i.id = $1`,
      [id],
    );
    return toInvitation(rows[0]);
  }
}

function toInvitation(row: InvitationRow): InvitationResponse {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    invited_by: row.inviter_id ? { id: row.inviter_id, name: row.inviter_name ?? '' } : null,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
    expired: row.expired,
  };
}
