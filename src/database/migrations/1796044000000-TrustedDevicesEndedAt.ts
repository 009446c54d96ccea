import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When the account last ended its trusted browsers (a password reset, or a change that ended
 * every credential): a trusted-device cookie vouches for the account only if issued after it.
 */
export class TrustedDevicesEndedAt1796044000000 implements MigrationInterface {
  name = 'TrustedDevicesEndedAt1796044000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE users ADD COLUMN trusted_devices_ended_at timestamptz`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE users DROP COLUMN trusted_devices_ended_at`);
  }
}
