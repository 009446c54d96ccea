import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When an account's credentials were last all ended (a password reset): a trusted-device cookie
 * issued before it no longer vouches for the browser.
 */
export class CredentialsEndedAt1796044000000 implements MigrationInterface {
  name = 'CredentialsEndedAt1796044000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE users ADD COLUMN credentials_ended_at timestamptz`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE users DROP COLUMN credentials_ended_at`);
  }
}
