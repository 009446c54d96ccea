import type { DataSource } from 'typeorm';
import { orphanDatasetTables } from '../../factories/asset.factory';

/**
 * Everything a user's requests can create or change, as one comparable value: the rows they own
 * in every app table (with the columns a write would touch), their account secrets and the
 * tables behind their datasets and instances. Scoped to the user, so suites running in parallel
 * cannot change it.
 */
export async function footprint(dataSource: DataSource, userId: string): Promise<Record<string, unknown>> {
  const query = async (sql: string) => dataSource.query(sql, [userId]);
  return {
    user: await query(
      `SELECT email, name, password_hash, api_key_hash, pro_user, blog_editor, email_verified_at
         FROM users WHERE id = $1`,
    ),
    assets: await query(
      `SELECT id, title, description, category, keywords, price, is_public, subscriber_count, table_name, row_count
         FROM assets WHERE owner_id = $1 ORDER BY id`,
    ),
    grants: await query(`SELECT asset_id, reason FROM access_grants WHERE user_id = $1 ORDER BY asset_id`),
    purchases: await query(`SELECT id, status FROM purchases WHERE user_id = $1 ORDER BY id`),
    tokens: await query(
      `SELECT id, name, scopes, token_hash, expires_at FROM api_tokens WHERE user_id = $1 ORDER BY id`,
    ),
    connectors: await query(
      `SELECT id, title, description, fetch_url_template, spec, subscriber_count
         FROM connectors WHERE owner_id = $1 ORDER BY id`,
    ),
    instances: await query(
      `SELECT id, title, visibility, refresh_interval, settings, iterations, method, headers, body_template,
              auth_data_encrypted, output_table_name, updated_at
         FROM connector_instances WHERE owner_id = $1 ORDER BY id`,
    ),
    runs: await query(
      `SELECT run.id, run.status FROM connector_runs run
         JOIN connector_instances instance ON instance.id = run.instance_id
        WHERE instance.owner_id = $1 ORDER BY run.id`,
    ),
    sessions: await query(`SELECT sid FROM session WHERE (sess -> 'passport' ->> 'user') = $1 ORDER BY sid`),
    twoFactor: await query(
      `SELECT secret_sealed, enabled_at, last_time_step FROM two_factor_credentials WHERE user_id = $1`,
    ),
    posts: await query(`SELECT id, title, slug, content FROM blog_posts WHERE author_id = $1 ORDER BY id`),
    tables: await query(
      `SELECT table_name FROM information_schema.tables
        WHERE table_schema = 'data' AND (
          table_name IN (SELECT table_name FROM assets WHERE owner_id = $1)
          OR table_name IN (SELECT output_table_name FROM connector_instances WHERE owner_id = $1))
        ORDER BY table_name`,
    ),
  };
}

/** Runs `act` and asserts that it left the users' footprints and the dataset tables as they were. */
export async function expectUnchanged<T>(
  dataSource: DataSource,
  userIds: string[],
  act: () => PromiseLike<T>,
): Promise<T> {
  const before = await Promise.all(userIds.map((id) => footprint(dataSource, id)));
  const orphansBefore = await orphanDatasetTables(dataSource);
  const result = await act();
  expect(await Promise.all(userIds.map((id) => footprint(dataSource, id)))).toEqual(before);
  expect(await orphanDatasetTables(dataSource)).toEqual(orphansBefore);
  return result;
}
