import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Live data products: a dataset whose loads come from the runs of a connector instance's table,
 * with the outcome of each run for it (the listing's freshness) and a held schema change.
 */
export class LiveProducts1796030000000 implements MigrationInterface {
  name = 'LiveProducts1796030000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE live_products (
        asset_id uuid PRIMARY KEY,
        instance_id uuid NOT NULL,
        source_table text NOT NULL,
        new_columns text[] NOT NULL DEFAULT '{}',
        last_refreshed_at timestamptz NOT NULL DEFAULT now(),
        stale_since timestamptz,
        pending_change jsonb,
        pending_detected_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT live_products_asset_id_fkey FOREIGN KEY (asset_id) REFERENCES assets(id) ON DELETE CASCADE,
        CONSTRAINT live_products_instance_id_fkey FOREIGN KEY (instance_id)
          REFERENCES connector_instances(id) ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX live_products_source_table_key ON live_products (source_table)`,
    );
    await queryRunner.query(`CREATE INDEX live_products_instance_id_idx ON live_products (instance_id)`);
    await queryRunner.query(`
      CREATE TABLE live_product_runs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        asset_id uuid NOT NULL,
        run_id uuid,
        finished_at timestamptz NOT NULL DEFAULT now(),
        outcome text NOT NULL,
        row_count bigint NOT NULL DEFAULT 0,
        error text,
        CONSTRAINT live_product_runs_outcome_check
          CHECK (outcome IN ('updated', 'unchanged', 'failed', 'schema_change')),
        CONSTRAINT live_product_runs_asset_id_fkey FOREIGN KEY (asset_id) REFERENCES assets(id) ON DELETE CASCADE,
        CONSTRAINT live_product_runs_run_id_fkey FOREIGN KEY (run_id) REFERENCES connector_runs(id) ON DELETE SET NULL
      )`);
    await queryRunner.query(
      `CREATE INDEX live_product_runs_asset_finished_idx ON live_product_runs (asset_id, finished_at)`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX live_product_runs_asset_run_key ON live_product_runs (asset_id, run_id)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS live_product_runs`);
    await queryRunner.query(`DROP TABLE IF EXISTS live_products`);
  }
}
