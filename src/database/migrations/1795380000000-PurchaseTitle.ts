import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An order keeps the title of what was bought: deleting a dataset keeps its purchases in the
 * records, and the buyer still needs to see what each one was for.
 */
export class PurchaseTitle1795380000000 implements MigrationInterface {
  name = 'PurchaseTitle1795380000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE purchases ADD COLUMN title text NOT NULL DEFAULT ''`);
    await queryRunner.query(
      `UPDATE purchases purchase SET title = asset.title FROM assets asset WHERE asset.id = purchase.asset_id`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE purchases DROP COLUMN title`);
  }
}
