const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are uuids; anything else can name no dataset (and must never reach Postgres as a uuid). */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}

/**
 * The access rules of spec §6 as SQL, so every query applies the same ones. `asset` is the alias
 * of the assets table, `user` a placeholder holding the caller's id or NULL for a visitor.
 */
export const accessSql = {
  /** The caller may read the full data: owner, or holds a grant. */
  hasAccess: (asset: string, user: string) =>
    `(COALESCE(${asset}.owner_id = ${user}::uuid, false) OR EXISTS (SELECT 1 FROM access_grants my_grant
       WHERE my_grant.asset_id = ${asset}.id AND my_grant.user_id = ${user}::uuid))`,
  /** The dataset shows in the catalogue for the caller: public, or they have access, or own it. */
  visible: (asset: string, user: string) => `(${asset}.is_public OR ${accessSql.hasAccess(asset, user)})`,
};
