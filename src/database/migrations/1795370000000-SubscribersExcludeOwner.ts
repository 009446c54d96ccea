import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A dataset's subscriber count leaves its owner out (every upload grants its owner access, which
 * is no subscription), as the owner's activity view and a deletion's answer already did: the
 * stored counts are taken again by that rule. Grants keep it from here on (grant-rows).
 */
export class SubscribersExcludeOwner1795370000000 implements MigrationInterface {
  name = 'SubscribersExcludeOwner1795370000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE assets asset SET subscriber_count = (SELECT count(*) FROM access_grants holder
        WHERE holder.asset_id = asset.id AND holder.user_id IS DISTINCT FROM asset.owner_id)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE assets asset SET subscriber_count = (SELECT count(*) FROM access_grants holder
        WHERE holder.asset_id = asset.id)`,
    );
  }
}
