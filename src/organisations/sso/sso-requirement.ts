import type { Sql } from '../../database/sql';

/**
 * The organisation, if any, that takes password sign-in away from this user: one that requires
 * SSO, of which the user is a member other than an owner, with the user's address at one of its
 * verified domains. Owners keep their password so that an outage of the provider (or a wrong
 * setting) cannot lock everyone out: they can still sign in and turn the requirement off.
 * Only new sign-ins are refused; sessions begun with a password before run on to their end.
 */
export async function organisationRequiringSso(
  sql: Sql,
  userId: string,
): Promise<{ id: string; name: string } | null> {
  const { rows } = await sql<{ id: string; name: string }>(
    `SELECT o.id, o.name
       FROM organisation_sso s
       JOIN organisations o ON o.id = s.organisation_id
       JOIN organisation_memberships m ON m.organisation_id = s.organisation_id AND m.user_id = $1
       JOIN users u ON u.id = m.user_id
       JOIN organisation_sso_domains d
         ON d.organisation_id = s.organisation_id AND d.verified_at IS NOT NULL
        AND d.domain = lower(substring(u.email from '@([^@]*)$'))
      WHERE s.required AND m.role <> 'owner'
      ORDER BY o.name, o.id LIMIT 1`,
    [userId],
  );
  return rows[0] ?? null;
}
