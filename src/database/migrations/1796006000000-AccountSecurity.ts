import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Password reset links, two-factor sign-in (the TOTP secret sealed with ENCRYPTION_KEY) and its
 * one-time recovery codes. Tokens and codes are kept only as SHA-256: they are random and long.
 */
export class AccountSecurity1796006000000 implements MigrationInterface {
  name = 'AccountSecurity1796006000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE password_reset_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        token_hash text NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX password_reset_tokens_token_hash_key ON password_reset_tokens (token_hash)`,
    );
    await queryRunner.query(
      `CREATE INDEX password_reset_tokens_user_id_idx ON password_reset_tokens (user_id)`,
    );
    await queryRunner.query(`
      CREATE TABLE two_factor_credentials (
        user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        secret_sealed text NOT NULL,
        enabled_at timestamptz,
        last_time_step bigint,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE two_factor_recovery_codes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        code_hash text NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE INDEX two_factor_recovery_codes_user_id_idx ON two_factor_recovery_codes (user_id)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE two_factor_recovery_codes`);
    await queryRunner.query(`DROP TABLE two_factor_credentials`);
    await queryRunner.query(`DROP TABLE password_reset_tokens`);
  }
}
