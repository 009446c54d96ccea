import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Attributes audit events to an organisation, so its owners and admins read its own log. No
 * foreign key, as with user_id: a deleted organisation's events stay. Events recorded before this
 * carry the organisation in their detail; the backfill reads it from there, the one UPDATE this
 * append-only table ever gets, with its guard lifted for that statement only.
 */
export class AuditEventOrganisation1796100000301 implements MigrationInterface {
  name = 'AuditEventOrganisation1796100000301';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE audit_events ADD COLUMN organisation_id uuid`);
    await queryRunner.query(`ALTER TABLE audit_events DISABLE TRIGGER audit_events_append_only`);
    await queryRunner.query(`
      UPDATE audit_events SET organisation_id = (detail->>'organisation_id')::uuid
       WHERE detail->>'organisation_id' ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'`);
    await queryRunner.query(`ALTER TABLE audit_events ENABLE TRIGGER audit_events_append_only`);
    await queryRunner.query(`
      CREATE INDEX audit_events_organisation_id_id_idx ON audit_events (organisation_id, id DESC)
       WHERE organisation_id IS NOT NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX audit_events_organisation_id_id_idx`);
    await queryRunner.query(`ALTER TABLE audit_events DROP COLUMN organisation_id`);
  }
}
