import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Named API tokens beside the personal key: one per integration, each with its scopes and an
 * optional expiry, stored as a SHA-256 only (the token is shown once, at creation).
 */
export class NamedApiTokens1796008000000 implements MigrationInterface {
  name = 'NamedApiTokens1796008000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE api_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL CONSTRAINT api_tokens_user_id_fkey REFERENCES users (id) ON DELETE CASCADE,
        name text NOT NULL,
        scopes text[] NOT NULL,
        token_hash text NOT NULL,
        token_hint text NOT NULL,
        expires_at timestamptz,
        last_used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX api_tokens_token_hash_key ON api_tokens (token_hash)`);
    await queryRunner.query(`CREATE INDEX api_tokens_user_id_idx ON api_tokens (user_id)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE api_tokens`);
  }
}
