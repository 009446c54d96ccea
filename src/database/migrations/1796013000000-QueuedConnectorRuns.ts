import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Runs a web process queues for a worker: a running run without a runner is waiting to be
 * claimed. A background run with settings for that run only carries them sealed (they may hold
 * private values) until a worker claims it.
 */
export class QueuedConnectorRuns1796013000000 implements MigrationInterface {
  name = 'QueuedConnectorRuns1796013000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE connector_runs ADD COLUMN queued_request text`);
    // What workers poll for: small, as only runs waiting for a worker are in it.
    await queryRunner.query(
      `CREATE INDEX connector_runs_queued_idx ON connector_runs (started_at)
       WHERE status = 'running' AND runner_id IS NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX connector_runs_queued_idx`);
    await queryRunner.query(`ALTER TABLE connector_runs DROP COLUMN queued_request`);
  }
}
