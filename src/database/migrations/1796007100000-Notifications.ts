import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Notices to users (receipts, refunds, archived datasets), written with the change they report
 * and mailed from this table by the notification mailer.
 */
export class Notifications1796007100000 implements MigrationInterface {
  name = 'Notifications1796007100000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE notifications (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL,
        kind text NOT NULL,
        subject text NOT NULL,
        text text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        mailed_at timestamptz,
        claimed_until timestamptz,
        mail_attempts int NOT NULL DEFAULT 0,
        CONSTRAINT notifications_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`CREATE INDEX notifications_user_id_idx ON notifications (user_id)`);
    await queryRunner.query(
      `CREATE INDEX notifications_unmailed_idx ON notifications (created_at) WHERE mailed_at IS NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS notifications`);
  }
}
