import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log: security-relevant and commercial events, append-only. A trigger refuses every
 * UPDATE, DELETE and TRUNCATE, so not even the app (or a mistaken migration) rewrites history.
 * No foreign key to users: deleting an account must not touch its events (see docs/architecture.md).
 */
export class AuditEvents1796049000000 implements MigrationInterface {
  name = 'AuditEvents1796049000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE audit_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id uuid,
        credential_kind text NOT NULL CHECK (credential_kind IN ('session', 'api_key', 'api_token', 'none')),
        credential_id text,
        type text NOT NULL,
        detail jsonb NOT NULL DEFAULT '{}',
        ip text,
        user_agent text,
        occurred_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX audit_events_user_id_id_idx ON audit_events (user_id, id DESC)`);
    await queryRunner.query(`
      CREATE FUNCTION audit_events_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'audit_events is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
        FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_change()`);
    await queryRunner.query(`
      CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
        FOR EACH STATEMENT EXECUTE FUNCTION audit_events_refuse_change()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE audit_events`);
    await queryRunner.query(`DROP FUNCTION audit_events_refuse_change()`);
  }
}
