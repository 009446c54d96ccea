import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rate-limit counters are short-lived and need no durability: as an unlogged table their
 * updates write no WAL, so the hit every stream, OData page and login counts commits without
 * waiting for a WAL flush (measured at about half the cost of the hit on a busy machine). After
 * a crash Postgres empties the table: every window starts afresh, which only forgives hits.
 */
export class RateLimitBucketsUnlogged1795320000001 implements MigrationInterface {
  name = 'RateLimitBucketsUnlogged1795320000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE rate_limit_buckets SET UNLOGGED`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE rate_limit_buckets SET LOGGED`);
  }
}
