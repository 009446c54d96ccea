import { MigrationInterface, QueryRunner } from 'typeorm';

/** An incremental connector instance keeps the cursor its last committed run reached. */
export class ConnectorIncrementalState1795300000000 implements MigrationInterface {
  name = 'ConnectorIncrementalState1795300000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE connector_instances ADD COLUMN incremental_state jsonb`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE connector_instances DROP COLUMN incremental_state`);
  }
}
