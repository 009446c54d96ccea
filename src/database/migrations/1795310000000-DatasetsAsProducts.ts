import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Datasets as products: a licence, a data dictionary (a description per column) and a column
 * profile computed at load; the size and time of the current data; every load kept as a version
 * (when, by whom, rows, bytes, mode); a daily activity counter per dataset for its owner; and a
 * ranked full-text search over title, description and keywords (an expression index, so nothing
 * is stored twice).
 */
export class DatasetsAsProducts1795310000000 implements MigrationInterface {
  name = 'DatasetsAsProducts1795310000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE assets ADD COLUMN licence text NOT NULL DEFAULT ''`);
    await queryRunner.query(`ALTER TABLE assets ADD COLUMN dictionary jsonb NOT NULL DEFAULT '{}'`);
    await queryRunner.query(`ALTER TABLE assets ADD COLUMN profile jsonb NOT NULL DEFAULT '[]'`);
    await queryRunner.query(`ALTER TABLE assets ADD COLUMN byte_count bigint NOT NULL DEFAULT 0`);
    await queryRunner.query(
      `ALTER TABLE assets ADD COLUMN data_updated_at timestamptz NOT NULL DEFAULT now()`,
    );
    await queryRunner.query(`UPDATE assets SET data_updated_at = created_at`);
    await queryRunner.query(`
      CREATE TABLE dataset_versions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        asset_id uuid NOT NULL,
        loaded_by uuid,
        mode text NOT NULL,
        row_count bigint NOT NULL,
        byte_count bigint NOT NULL,
        loaded_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT dataset_versions_mode_check CHECK (mode IN ('initial', 'replace', 'append')),
        CONSTRAINT dataset_versions_asset_id_fkey FOREIGN KEY (asset_id)
          REFERENCES assets(id) ON DELETE CASCADE,
        CONSTRAINT dataset_versions_loaded_by_fkey FOREIGN KEY (loaded_by)
          REFERENCES users(id) ON DELETE SET NULL
      )`);
    await queryRunner.query(
      `CREATE INDEX dataset_versions_asset_id_idx ON dataset_versions (asset_id, loaded_at)`,
    );
    await queryRunner.query(`
      INSERT INTO dataset_versions (asset_id, loaded_by, mode, row_count, byte_count, loaded_at)
      SELECT id, owner_id, 'initial', row_count, byte_count, created_at FROM assets`);
    await queryRunner.query(`
      CREATE TABLE dataset_daily_activity (
        asset_id uuid NOT NULL,
        day date NOT NULL,
        grid_views integer NOT NULL DEFAULT 0,
        stream_requests integer NOT NULL DEFAULT 0,
        CONSTRAINT dataset_daily_activity_pkey PRIMARY KEY (asset_id, day),
        CONSTRAINT dataset_daily_activity_asset_id_fkey FOREIGN KEY (asset_id)
          REFERENCES assets(id) ON DELETE CASCADE
      )`);
    // to_tsvector with a named configuration is immutable; array_to_string is not declared so,
    // hence the wrapper (keywords are plain text).
    await queryRunner.query(`
      CREATE FUNCTION asset_search_document(title text, description text, keywords text[])
      RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT setweight(to_tsvector('english', coalesce(title, '')), 'A')
            || setweight(to_tsvector('english', coalesce(array_to_string(keywords, ' '), '')), 'A')
            || setweight(to_tsvector('english', coalesce(description, '')), 'B')
      $$`);
    await queryRunner.query(
      `CREATE INDEX assets_fulltext_idx ON assets
         USING gin (asset_search_document(title, description, keywords)) WITH (fastupdate = off)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS assets_fulltext_idx`);
    await queryRunner.query(`DROP FUNCTION IF EXISTS asset_search_document(text, text, text[])`);
    await queryRunner.query(`DROP TABLE IF EXISTS dataset_daily_activity`);
    await queryRunner.query(`DROP TABLE IF EXISTS dataset_versions`);
    for (const column of ['data_updated_at', 'byte_count', 'profile', 'dictionary', 'licence']) {
      await queryRunner.query(`ALTER TABLE assets DROP COLUMN IF EXISTS ${column}`);
    }
  }
}
