import { MigrationInterface, QueryRunner } from 'typeorm';

/** Lets the blog search find any part of a title (ILIKE '%...%') through a trigram index. */
export class BlogTitleTrigramIndex1795283000000 implements MigrationInterface {
  name = 'BlogTitleTrigramIndex1795283000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX blog_posts_title_trgm_idx ON blog_posts USING gin (title gin_trgm_ops)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS blog_posts_title_trgm_idx`);
  }
}
