import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Organisations, their members with one role each, and invitations by e-mail. Roles are text with
 * a CHECK (as credential_kind is), so adding one later is a constraint change, not a type change.
 * An invitation keeps only its token's SHA-256, like password reset links.
 */
export class Organisations1796100000031 implements MigrationInterface {
  name = 'Organisations1796100000031';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE organisations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        slug text NOT NULL,
        logo_url text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX organisations_slug_key ON organisations (slug)`);
    await queryRunner.query(`
      CREATE TABLE organisation_memberships (
        organisation_id uuid NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        role text NOT NULL CHECK (role IN ('owner', 'admin', 'editor', 'viewer')),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organisation_id, user_id)
      )`);
    await queryRunner.query(
      `CREATE INDEX organisation_memberships_user_id_idx ON organisation_memberships (user_id)`,
    );
    await queryRunner.query(`
      CREATE TABLE organisation_invitations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organisation_id uuid NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
        email text NOT NULL,
        role text NOT NULL CHECK (role IN ('owner', 'admin', 'editor', 'viewer')),
        token_hash text NOT NULL,
        invited_by uuid REFERENCES users(id) ON DELETE SET NULL,
        state text NOT NULL DEFAULT 'pending'
          CHECK (state IN ('pending', 'accepted', 'declined', 'revoked')),
        expires_at timestamptz NOT NULL,
        answered_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX organisation_invitations_token_hash_key ON organisation_invitations (token_hash)`,
    );
    // One open invitation per address and organisation: a second would only confuse the invitee.
    await queryRunner.query(`
      CREATE UNIQUE INDEX organisation_invitations_pending_email_key
        ON organisation_invitations (organisation_id, lower(email)) WHERE state = 'pending'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE organisation_invitations`);
    await queryRunner.query(`DROP TABLE organisation_memberships`);
    await queryRunner.query(`DROP TABLE organisations`);
  }
}
