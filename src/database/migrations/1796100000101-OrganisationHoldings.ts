import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What organisations own and hold. A dataset may belong to an organisation (organisation_id; its
 * owner_id stays the uploader, for the record and for the subscriber count). An organisation may
 * hold a dataset it got or bought (organisation_grants), read by every member, and an order may be
 * placed for one (purchases.organisation_id). Deleting an organisation that still owns datasets is
 * refused (RESTRICT): they are its members' work, and must be deleted or handed on first.
 */
export class OrganisationHoldings1796100000101 implements MigrationInterface {
  name = 'OrganisationHoldings1796100000101';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE assets ADD COLUMN organisation_id uuid
        CONSTRAINT assets_organisation_id_fkey REFERENCES organisations(id) ON DELETE RESTRICT`);
    await queryRunner.query(
      `CREATE INDEX assets_organisation_id_idx ON assets (organisation_id) WHERE organisation_id IS NOT NULL`,
    );
    await queryRunner.query(`
      CREATE TABLE organisation_grants (
        organisation_id uuid NOT NULL
          CONSTRAINT organisation_grants_organisation_id_fkey REFERENCES organisations(id) ON DELETE CASCADE,
        asset_id uuid NOT NULL
          CONSTRAINT organisation_grants_asset_id_fkey REFERENCES assets(id) ON DELETE CASCADE,
        reason text NOT NULL CONSTRAINT organisation_grants_reason_check CHECK (reason IN ('free', 'purchase')),
        granted_by uuid CONSTRAINT organisation_grants_granted_by_fkey REFERENCES users(id) ON DELETE SET NULL,
        granted_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT organisation_grants_pkey PRIMARY KEY (organisation_id, asset_id)
      )`);
    await queryRunner.query(
      `CREATE INDEX organisation_grants_asset_id_idx ON organisation_grants (asset_id)`,
    );
    await queryRunner.query(`
      ALTER TABLE purchases ADD COLUMN organisation_id uuid
        CONSTRAINT purchases_organisation_id_fkey REFERENCES organisations(id) ON DELETE SET NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE purchases DROP COLUMN organisation_id`);
    await queryRunner.query(`DROP TABLE organisation_grants`);
    await queryRunner.query(`ALTER TABLE assets DROP COLUMN organisation_id`);
  }
}
