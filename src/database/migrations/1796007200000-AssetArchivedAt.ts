import { MigrationInterface, QueryRunner } from 'typeorm';

/** Paid data never vanishes: a dataset others paid for is archived instead of deleted or unpublished. */
export class AssetArchivedAt1796007200000 implements MigrationInterface {
  name = 'AssetArchivedAt1796007200000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE assets ADD COLUMN archived_at timestamptz`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE assets DROP COLUMN IF EXISTS archived_at`);
  }
}
