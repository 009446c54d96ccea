import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The SQL workspace's memory: every query a user ran (the last few hundred, kept by the server)
 * and the queries they saved under a name, both private to that user.
 */
export class QueryHistoryAndSavedQueries1796020000000 implements MigrationInterface {
  name = 'QueryHistoryAndSavedQueries1796020000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE query_history (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL,
        sql text NOT NULL,
        started_at timestamptz NOT NULL,
        elapsed_ms int NOT NULL,
        row_count int,
        error text,
        CONSTRAINT query_history_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX query_history_user_started_idx ON query_history (user_id, started_at)`,
    );
    await queryRunner.query(`
      CREATE TABLE saved_queries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL,
        name text NOT NULL,
        sql text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT saved_queries_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX saved_queries_user_name_key ON saved_queries (user_id, lower(name))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS saved_queries`);
    await queryRunner.query(`DROP TABLE IF EXISTS query_history`);
  }
}
