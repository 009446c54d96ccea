import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How a dataset's CSV files are written (delimiter, encoding, decimal mark, thousands separator,
 * date order), kept from the upload so a refresh reads its files the same way. NULL for datasets
 * uploaded before, and for those not from a CSV: a refresh then detects what it can.
 */
export class AssetCsvDialect1796012000000 implements MigrationInterface {
  name = 'AssetCsvDialect1796012000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE assets ADD COLUMN csv_dialect jsonb`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE assets DROP COLUMN csv_dialect`);
  }
}
