import { MigrationInterface, QueryRunner } from 'typeorm';

/** Single-use links that let a browser sign in to an account locked by others' failed attempts. */
export class LoginUnlockTokens1796060000001 implements MigrationInterface {
  name = 'LoginUnlockTokens1796060000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE login_unlock_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        token_hash text NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX login_unlock_tokens_token_hash_key ON login_unlock_tokens (token_hash)`,
    );
    await queryRunner.query(`CREATE INDEX login_unlock_tokens_user_id_idx ON login_unlock_tokens (user_id)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE login_unlock_tokens`);
  }
}
