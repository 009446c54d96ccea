import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A named token may belong to an organisation instead of a user: it acts as the organisation, so
 * it outlives its creator's membership (created_by only records who made it, and is cleared when
 * that account goes) and goes with the organisation (ON DELETE CASCADE). Exactly one holder each.
 */
export class OrganisationApiTokens1796100000701 implements MigrationInterface {
  name = 'OrganisationApiTokens1796100000701';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE api_tokens ALTER COLUMN user_id DROP NOT NULL`);
    await queryRunner.query(`
      ALTER TABLE api_tokens
        ADD COLUMN organisation_id uuid
          CONSTRAINT api_tokens_organisation_id_fkey REFERENCES organisations (id) ON DELETE CASCADE,
        ADD COLUMN created_by uuid
          CONSTRAINT api_tokens_created_by_fkey REFERENCES users (id) ON DELETE SET NULL,
        ADD CONSTRAINT api_tokens_one_holder_check CHECK ((user_id IS NULL) <> (organisation_id IS NULL))`);
    await queryRunner.query(
      `CREATE INDEX api_tokens_organisation_id_idx ON api_tokens (organisation_id) WHERE organisation_id IS NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM api_tokens WHERE organisation_id IS NOT NULL`);
    await queryRunner.query(`DROP INDEX api_tokens_organisation_id_idx`);
    await queryRunner.query(`
      ALTER TABLE api_tokens DROP CONSTRAINT api_tokens_one_holder_check,
        DROP COLUMN created_by, DROP COLUMN organisation_id`);
    await queryRunner.query(`ALTER TABLE api_tokens ALTER COLUMN user_id SET NOT NULL`);
  }
}
