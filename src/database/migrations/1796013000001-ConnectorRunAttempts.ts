import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How many workers have started a run: a run whose worker died before anything of it was
 * committed is queued again for another worker, a bounded number of times (a run that kills
 * every worker that takes it must end, failed).
 */
export class ConnectorRunAttempts1796013000001 implements MigrationInterface {
  name = 'ConnectorRunAttempts1796013000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE connector_runs ADD COLUMN attempts integer NOT NULL DEFAULT 1`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE connector_runs DROP COLUMN attempts`);
  }
}
