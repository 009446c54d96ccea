import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When the stored column profile was computed, as the data_updated_at of the rows it describes:
 * behind data_updated_at while a load's profile is still running, or for good if the process
 * died first, so the detail page can say so and the profile be computed again.
 */
export class AssetProfiledAt1795380000001 implements MigrationInterface {
  name = 'AssetProfiledAt1795380000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE assets ADD COLUMN profiled_at timestamptz`);
    await queryRunner.query(`UPDATE assets SET profiled_at = data_updated_at`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE assets DROP COLUMN profiled_at`);
  }
}
