import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lets a run be traced to the process executing it (runner_id + heartbeat), so a run whose
 * process died is marked failed instead of staying "running" forever, and lets the database
 * itself guarantee at most one running run per instance.
 */
export class ConnectorRunOwnership1795282000000 implements MigrationInterface {
  name = 'ConnectorRunOwnership1795282000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE connector_runs ADD COLUMN runner_id text`);
    await queryRunner.query(`ALTER TABLE connector_runs ADD COLUMN heartbeat_at timestamptz`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX connector_runs_one_running_key ON connector_runs (instance_id) WHERE status = 'running'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS connector_runs_one_running_key`);
    await queryRunner.query(`ALTER TABLE connector_runs DROP COLUMN IF EXISTS heartbeat_at`);
    await queryRunner.query(`ALTER TABLE connector_runs DROP COLUMN IF EXISTS runner_id`);
  }
}
