import { ConflictException, ForbiddenException, NotFoundException } from '@nestjs/common';
import { uncountOrganisationGrants } from '../access/grant-rows';
import { isUuid } from '../common/uuid';
import type { Sql } from '../database/sql';
import { managesMembers, OrganisationRole } from './organisation-role';
import {
  LAST_OWNER,
  LAST_OWNER_ROLE,
  ORGANISATION_NOT_FOUND,
  OWNERS_AND_ADMINS_ONLY,
  OWNERS_ONLY,
} from './organisations.messages';

/**
 * The caller's role in the organisation, with the organisation's row locked until the transaction
 * ends: every change to members takes this lock first, so two owners leaving at once cannot both
 * see the other as the remaining owner. Not a member (or no such organisation): 404, alike.
 */
export async function lockedRoleOf(
  sql: Sql,
  organisationId: string,
  userId: string,
): Promise<OrganisationRole> {
  if (!isUuid(organisationId)) throw new NotFoundException(ORGANISATION_NOT_FOUND);
  const { rows } = await sql<{ role: OrganisationRole }>(
    `SELECT m.role FROM organisations o
       JOIN organisation_memberships m ON m.organisation_id = o.id AND m.user_id = $2
      WHERE o.id = $1
      FOR UPDATE OF o`,
    [organisationId, userId],
  );
  if (!rows[0]) throw new NotFoundException(ORGANISATION_NOT_FOUND);
  return rows[0].role;
}

/** The same without a lock, for reads. */
export async function roleOf(sql: Sql, organisationId: string, userId: string): Promise<OrganisationRole> {
  if (!isUuid(organisationId)) throw new NotFoundException(ORGANISATION_NOT_FOUND);
  const { rows } = await sql<{ role: OrganisationRole }>(
    `SELECT role FROM organisation_memberships WHERE organisation_id = $1 AND user_id = $2`,
    [organisationId, userId],
  );
  if (!rows[0]) throw new NotFoundException(ORGANISATION_NOT_FOUND);
  return rows[0].role;
}

/** Members may see the organisation, so a role too low answers 403, not 404. */
export function requireManager(role: OrganisationRole): void {
  if (!managesMembers(role)) throw new ForbiddenException(OWNERS_AND_ADMINS_ONLY);
}

export function requireOwner(role: OrganisationRole): void {
  if (role !== 'owner') throw new ForbiddenException(OWNERS_ONLY);
}

/**
 * Refuses a change that would take the organisation's last owner away (by leaving, removal or a
 * new role): an organisation without an owner could never be managed or deleted again.
 */
export async function keepAnOwner(
  sql: Sql,
  organisationId: string,
  losing: { userId: string; role: OrganisationRole },
  message: typeof LAST_OWNER | typeof LAST_OWNER_ROLE,
): Promise<void> {
  if (losing.role !== 'owner') return;
  const { rows } = await sql<{ others: number }>(
    `SELECT count(*)::int AS others FROM organisation_memberships
      WHERE organisation_id = $1 AND role = 'owner' AND user_id <> $2`,
    [organisationId, losing.userId],
  );
  if (rows[0].others === 0) throw new ConflictException(message);
}

/**
 * Before an account is deleted (in that transaction): the account may not take an organisation's
 * last owner away from other members (409, naming the organisation); an organisation it is the
 * only member of goes with it, and that organisation's datasets with the account's own. Other memberships end with the user row (ON DELETE CASCADE).
 */
export async function releaseOrganisationsOf(sql: Sql, userId: string): Promise<void> {
  const { rows } = await sql<{ id: string; name: string; others: number }>(
    `SELECT o.id, o.name,
            (SELECT count(*)::int FROM organisation_memberships other
              WHERE other.organisation_id = o.id AND other.user_id <> $1) AS others
       FROM organisations o
       JOIN organisation_memberships m ON m.organisation_id = o.id AND m.user_id = $1 AND m.role = 'owner'
      WHERE NOT EXISTS (SELECT 1 FROM organisation_memberships co
                         WHERE co.organisation_id = o.id AND co.role = 'owner' AND co.user_id <> $1)
      ORDER BY o.name
      FOR UPDATE OF o`,
    [userId],
  );
  const shared = rows.find((row) => row.others > 0);
  if (shared) throw new ConflictException(lastOwnerOfAccountMessage(shared.name));
  if (rows.length > 0) {
    const ids = rows.map((row) => row.id);
    // Their datasets are the account's again, to be deleted (or archived for buyers) with it.
    await sql(
      `UPDATE assets SET organisation_id = NULL, owner_id = $2 WHERE organisation_id = ANY($1::uuid[])`,
      [ids, userId],
    );
    await uncountOrganisationGrants(sql, ids);
    await sql(`DELETE FROM organisations WHERE id = ANY($1::uuid[])`, [ids]);
  }
}

export function lastOwnerOfAccountMessage(organisationName: string): string {
  return `You are the last owner of the organisation "${organisationName}". Make another member an owner, or delete the organisation, before deleting your account.`;
}
