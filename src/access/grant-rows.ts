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
