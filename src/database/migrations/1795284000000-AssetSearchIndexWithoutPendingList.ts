import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Catalogue titles go straight into the trigram index instead of its pending list. Until a VACUUM
 * empties that list the planner prices the index far above a sequential scan (and every search
 * reads the whole list), so the catalogue search tested every title after a burst of new datasets.
 * Datasets are added rarely and searched often, so the slower insert is the cheaper side.
 */
export class AssetSearchIndexWithoutPendingList1795284000000 implements MigrationInterface {
  name = 'AssetSearchIndexWithoutPendingList1795284000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER INDEX assets_search_idx SET (fastupdate = off)`);
    await queryRunner.query(`SELECT gin_clean_pending_list('assets_search_idx'::regclass)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER INDEX assets_search_idx RESET (fastupdate)`);
  }
}
