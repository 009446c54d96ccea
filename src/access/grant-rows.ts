import type { Sql } from '../database/sql';
import { isSubscriber } from './access-gate.service';
import type { GrantResult } from './grant-result';

/** Adds the grant and, only if it is new and not the owner's, counts the subscriber: the count cannot drift. */
export async function insertGrant(
  sql: Sql,
  userId: string,
  assetId: string,
  reason: GrantResult['reason'],
): Promise<void> {
  const inserted = await sql(
    `INSERT INTO access_grants (user_id, asset_id, reason) VALUES ($1, $2, $3)
     ON CONFLICT (user_id, asset_id) DO NOTHING RETURNING asset_id`,
    [userId, assetId, reason],
  );
  if (inserted.rows.length > 0) {
    await sql(
      `UPDATE assets asset SET subscriber_count = subscriber_count + 1
        WHERE asset.id = $1 AND ${isSubscriber('$2::uuid', 'asset')}`,
      [assetId, userId],
    );
  }
}

/**
 * Takes a grant away (with `reason`, only a grant of that reason) and, only if there was one (not
 * the owner's), uncounts the subscriber. True when one was removed.
 */
export async function deleteGrant(
  sql: Sql,
  userId: string,
  assetId: string,
  reason?: GrantResult['reason'],
): Promise<boolean> {
  const deleted = await sql(
    `DELETE FROM access_grants WHERE user_id = $1 AND asset_id = $2 AND ($3::text IS NULL OR reason = $3)
     RETURNING asset_id`,
    [userId, assetId, reason ?? null],
  );
  if (deleted.rows.length === 0) return false;
  await sql(
    `UPDATE assets asset SET subscriber_count = subscriber_count - 1
      WHERE asset.id = $1 AND ${isSubscriber('$2::uuid', 'asset')}`,
    [assetId, userId],
  );
  return true;
}

/** Adds the organisation's grant and, only if it is new, counts the organisation as one subscriber. */
export async function insertOrganisationGrant(
  sql: Sql,
  organisationId: string,
  assetId: string,
  reason: 'free' | 'purchase',
  grantedBy: string,
): Promise<void> {
  const inserted = await sql(
    `INSERT INTO organisation_grants (organisation_id, asset_id, reason, granted_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT (organisation_id, asset_id) DO NOTHING RETURNING asset_id`,
    [organisationId, assetId, reason, grantedBy],
  );
  if (inserted.rows.length > 0) {
    await sql(`UPDATE assets SET subscriber_count = subscriber_count + 1 WHERE id = $1`, [assetId]);
  }
}

/** Takes the organisation's grant away and uncounts it. True when one was removed. */
export async function deleteOrganisationGrant(
  sql: Sql,
  organisationId: string,
  assetId: string,
): Promise<boolean> {
  const deleted = await sql(
    `DELETE FROM organisation_grants WHERE organisation_id = $1 AND asset_id = $2 RETURNING asset_id`,
    [organisationId, assetId],
  );
  if (deleted.rows.length === 0) return false;
  await sql(`UPDATE assets SET subscriber_count = subscriber_count - 1 WHERE id = $1`, [assetId]);
  return true;
}

/**
 * Before organisations are deleted (their grants go with them, ON DELETE CASCADE): each stops
 * counting as a subscriber of what it held.
 */
export async function uncountOrganisationGrants(sql: Sql, organisationIds: string[]): Promise<void> {
  await sql(
    `UPDATE assets asset SET subscriber_count = asset.subscriber_count - held.organisations
       FROM (SELECT asset_id, count(*)::int AS organisations FROM organisation_grants
              WHERE organisation_id = ANY($1::uuid[]) GROUP BY asset_id) held
      WHERE asset.id = held.asset_id`,
    [organisationIds],
  );
}
