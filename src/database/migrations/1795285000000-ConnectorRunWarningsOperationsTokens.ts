import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Connector runs record why they may be incomplete (a cap stopped them) instead of passing for
 * complete; an instance names the operation it runs and caches an OAuth2 token (encrypted).
 */
export class ConnectorRunWarningsOperationsTokens1795285000000 implements MigrationInterface {
  name = 'ConnectorRunWarningsOperationsTokens1795285000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE connector_runs ADD COLUMN warning text`);
    await queryRunner.query(`ALTER TABLE connector_instances ADD COLUMN operation_id text`);
    await queryRunner.query(`ALTER TABLE connector_instances ADD COLUMN token_cache_encrypted text`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE connector_instances DROP COLUMN token_cache_encrypted`);
    await queryRunner.query(`ALTER TABLE connector_instances DROP COLUMN operation_id`);
    await queryRunner.query(`ALTER TABLE connector_runs DROP COLUMN warning`);
  }
}
