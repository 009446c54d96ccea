import { ConflictException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { uncountOrganisationGrants } from '../access/grant-rows';
import { AuditService } from '../audit/audit.service';
import { QueryAccessWithdrawal } from '../query/run/access-withdrawal.service';
import { isUuid } from '../common/uuid';
import { isUniqueViolation, Sql, sqlOn } from '../database/sql';
import { CreateOrganisationDto } from './dto/create-organisation.dto';
import { MemberResponse, OrganisationResponse } from './dto/organisation.response';
import { UpdateOrganisationDto } from './dto/update-organisation.dto';
import { keepAnOwner, lockedRoleOf, requireManager, requireOwner, roleOf } from './membership-rules';
import { OrganisationRole } from './organisation-role';
import {
  LAST_OWNER,
  LAST_OWNER_ROLE,
  MEMBER_NOT_FOUND,
  ONLY_OWNERS_MANAGE_OWNERS,
  ORGANISATION_NOT_FOUND,
  SLUG_TAKEN,
  STILL_OWNS_DATASETS,
} from './organisations.messages';

interface OrganisationRow {
  id: string;
  name: string;
  slug: string;
  logo_url: string | null;
  created_at: Date;
  my_role: OrganisationRole;
}

interface MemberRow {
  user_id: string;
  name: string;
  email: string;
  role: OrganisationRole;
  created_at: Date;
}

const ORGANISATION_COLUMNS = `o.id, o.name, o.slug, o.logo_url, o.created_at, m.role AS my_role`;
/** Owners first, then admins, editors, viewers; by name within a role. */
const ROLE_ORDER = `array_position(ARRAY['owner','admin','editor','viewer'], m.role)`;

/** Organisations and their members; invitations are InvitationsService's. */
@Injectable()
export class OrganisationsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly audit: AuditService,
    private readonly queryAccess: QueryAccessWithdrawal,
  ) {}

  /** The creator becomes its first owner. */
  async create(callerId: string, input: CreateOrganisationDto): Promise<OrganisationResponse> {
    return this.slugChecked(() =>
      this.dataSource.transaction(async (manager) => {
        const sql = sqlOn(manager);
        const { rows } = await sql<{ id: string }>(
          `INSERT INTO organisations (name, slug, logo_url) VALUES ($1, $2, $3) RETURNING id`,
          [input.name, input.slug, input.logo_url ?? null],
        );
        const id = rows[0].id;
        await sql(
          `INSERT INTO organisation_memberships (organisation_id, user_id, role) VALUES ($1, $2, 'owner')`,
          [id, callerId],
        );
        await this.audit.recordIn(sql, 'organisation_created', { organisation_id: id, slug: input.slug });
        return this.readOne(sql, id, callerId);
      }),
    );
  }

  /** The caller's organisations with the caller's role, by name. */
  async listMine(callerId: string): Promise<OrganisationResponse[]> {
    const { rows } = await sqlOn(this.dataSource)<OrganisationRow>(
      `SELECT ${ORGANISATION_COLUMNS} FROM organisations o
         JOIN organisation_memberships m ON m.organisation_id = o.id
        WHERE m.user_id = $1 ORDER BY lower(o.name), o.id`,
      [callerId],
    );
    return rows.map(toOrganisation);
  }

  async get(callerId: string, id: string): Promise<OrganisationResponse> {
    if (!isUuid(id)) throw new NotFoundException(ORGANISATION_NOT_FOUND);
    return this.readOne(sqlOn(this.dataSource), id, callerId);
  }

  async update(callerId: string, id: string, input: UpdateOrganisationDto): Promise<OrganisationResponse> {
    return this.slugChecked(() =>
      this.dataSource.transaction(async (manager) => {
        const sql = sqlOn(manager);
        requireManager(await lockedRoleOf(sql, id, callerId));
        await sql(
          `UPDATE organisations
              SET name = COALESCE($2, name), slug = COALESCE($3, slug),
                  logo_url = CASE WHEN $4::boolean THEN $5::text ELSE logo_url END, updated_at = now()
            WHERE id = $1`,
          [id, input.name ?? null, input.slug ?? null, input.logo_url !== undefined, input.logo_url ?? null],
        );
        return this.readOne(sql, id, callerId);
      }),
    );
  }

  /** Owners only; members, invitations and holdings go with it. One that owns datasets is refused (409). */
  async delete(callerId: string, id: string): Promise<void> {
    const members = await this.dataSource.transaction(async (manager) => {
      const sql = sqlOn(manager);
      requireOwner(await lockedRoleOf(sql, id, callerId));
      const { rows } = await sql(`SELECT 1 FROM assets WHERE organisation_id = $1 LIMIT 1`, [id]);
      if (rows.length > 0) throw new ConflictException(STILL_OWNS_DATASETS);
      const { rows: memberRows } = await sql<{ user_id: string }>(
        `SELECT user_id FROM organisation_memberships WHERE organisation_id = $1`,
        [id],
      );
      await uncountOrganisationGrants(sql, [id]);
      await sql(`DELETE FROM organisations WHERE id = $1`, [id]);
      await this.audit.recordIn(sql, 'organisation_deleted', { organisation_id: id });
      return memberRows.map((row) => row.user_id);
    });
    // Its holdings went with it: no member's query reads them on.
    await this.queryAccess.withdrawQuietly(members);
  }

  /** Every member sees who else is one. */
  async members(callerId: string, id: string): Promise<MemberResponse[]> {
    const sql = sqlOn(this.dataSource);
    await roleOf(sql, id, callerId);
    const { rows } = await sql<MemberRow>(
      `SELECT m.user_id, u.name, u.email, m.role, m.created_at
         FROM organisation_memberships m JOIN users u ON u.id = m.user_id
        WHERE m.organisation_id = $1
        ORDER BY ${ROLE_ORDER}, lower(u.name), m.user_id`,
      [id],
    );
    return rows.map(toMember);
  }

  /** Owners and admins; making or unmaking an owner is for owners, and one owner must remain. */
  async changeRole(
    callerId: string,
    id: string,
    userId: string,
    role: OrganisationRole,
  ): Promise<MemberResponse> {
    return this.dataSource.transaction(async (manager) => {
      const sql = sqlOn(manager);
      const callerRole = await lockedRoleOf(sql, id, callerId);
      requireManager(callerRole);
      const target = await this.memberOf(sql, id, userId);
      if (target.role === role) return toMember(target);
      if ((target.role === 'owner' || role === 'owner') && callerRole !== 'owner') {
        throw new ForbiddenException(ONLY_OWNERS_MANAGE_OWNERS);
      }
      await keepAnOwner(sql, id, { userId, role: target.role }, LAST_OWNER_ROLE);
      await sql(`UPDATE organisation_memberships SET role = $3 WHERE organisation_id = $1 AND user_id = $2`, [
        id,
        userId,
        role,
      ]);
      await this.audit.recordIn(sql, 'organisation_member_role_changed', {
        organisation_id: id,
        member_id: userId,
        role,
        previous_role: target.role,
      });
      return toMember({ ...target, role });
    });
  }

  /** Owners and admins; admins cannot remove owners. Removing oneself is leaving. */
  async removeMember(callerId: string, id: string, userId: string): Promise<void> {
    if (userId === callerId) return this.leave(callerId, id);
    await this.dataSource.transaction(async (manager) => {
      const sql = sqlOn(manager);
      const callerRole = await lockedRoleOf(sql, id, callerId);
      requireManager(callerRole);
      const target = await this.memberOf(sql, id, userId);
      if (target.role === 'owner' && callerRole !== 'owner') {
        throw new ForbiddenException(ONLY_OWNERS_MANAGE_OWNERS);
      }
      await sql(`DELETE FROM organisation_memberships WHERE organisation_id = $1 AND user_id = $2`, [
        id,
        userId,
      ]);
      await this.audit.recordIn(sql, 'organisation_member_removed', {
        organisation_id: id,
        member_id: userId,
        role: target.role,
      });
    });
    // What the organisation owns and holds is theirs to read no longer, running queries included.
    await this.queryAccess.withdrawQuietly([userId]);
  }

  /** Any member may leave, except the last owner (409): the organisation would be nobody's. */
  async leave(callerId: string, id: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const sql = sqlOn(manager);
      const role = await lockedRoleOf(sql, id, callerId);
      await keepAnOwner(sql, id, { userId: callerId, role }, LAST_OWNER);
      await sql(`DELETE FROM organisation_memberships WHERE organisation_id = $1 AND user_id = $2`, [
        id,
        callerId,
      ]);
      await this.audit.recordIn(sql, 'organisation_member_left', { organisation_id: id, role });
    });
    await this.queryAccess.withdrawQuietly([callerId]);
  }

  private async memberOf(sql: Sql, id: string, userId: string): Promise<MemberRow> {
    if (!isUuid(userId)) throw new NotFoundException(MEMBER_NOT_FOUND);
    const { rows } = await sql<MemberRow>(
      `SELECT m.user_id, u.name, u.email, m.role, m.created_at
         FROM organisation_memberships m JOIN users u ON u.id = m.user_id
        WHERE m.organisation_id = $1 AND m.user_id = $2`,
      [id, userId],
    );
    if (!rows[0]) throw new NotFoundException(MEMBER_NOT_FOUND);
    return rows[0];
  }

  private async readOne(sql: Sql, id: string, callerId: string): Promise<OrganisationResponse> {
    const { rows } = await sql<OrganisationRow>(
      `SELECT ${ORGANISATION_COLUMNS} FROM organisations o
         JOIN organisation_memberships m ON m.organisation_id = o.id AND m.user_id = $2
        WHERE o.id = $1`,
      [id, callerId],
    );
    if (!rows[0]) throw new NotFoundException(ORGANISATION_NOT_FOUND);
    return toOrganisation(rows[0]);
  }

  /** The slug's unique index is the one judge of a taken slug, also between two parallel requests. */
  private async slugChecked<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictException(SLUG_TAKEN);
      throw error;
    }
  }
}

function toOrganisation(row: OrganisationRow): OrganisationResponse {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    logo_url: row.logo_url,
    created_at: row.created_at.toISOString(),
    my_role: row.my_role,
  };
}

function toMember(row: MemberRow): MemberResponse {
  return {
    user_id: row.user_id,
    name: row.name,
    email: row.email,
    role: row.role,
    joined_at: row.created_at.toISOString(),
  };
}
