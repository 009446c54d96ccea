import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Single sign-on with OpenID Connect per organisation: one provider each (the client secret
 * sealed with ENCRYPTION_KEY, like connector credentials), and the e-mail domains it vouches
 * for. A domain counts once verified by a mailed link; a verified domain belongs to one
 * organisation only (the partial unique index is the judge, also between parallel verifications).
 */
export class OrganisationSso1796100000501 implements MigrationInterface {
  name = 'OrganisationSso1796100000501';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE organisation_sso (
        organisation_id uuid PRIMARY KEY REFERENCES organisations(id) ON DELETE CASCADE,
        issuer text NOT NULL,
        client_id text NOT NULL,
        client_secret_sealed text NOT NULL,
        required boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE organisation_sso_domains (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organisation_id uuid NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
        domain text NOT NULL,
        verification_email text NOT NULL,
        token_hash text,
        token_expires_at timestamptz,
        verified_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX organisation_sso_domains_token_hash_key ON organisation_sso_domains (token_hash)`,
    );
    await queryRunner.query(`
      CREATE UNIQUE INDEX organisation_sso_domains_organisation_domain_key
        ON organisation_sso_domains (organisation_id, domain)`);
    await queryRunner.query(`
      CREATE UNIQUE INDEX organisation_sso_domains_verified_domain_key
        ON organisation_sso_domains (domain) WHERE verified_at IS NOT NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE organisation_sso_domains`);
    await queryRunner.query(`DROP TABLE organisation_sso`);
  }
}
