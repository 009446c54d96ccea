import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Hosted checkout (Stripe): an order waits as 'pending' with its checkout link until the
 * provider's signed notice settles it as paid, expired or refunded; each notice is recorded once
 * (payment_events), so a replayed notice changes nothing.
 */
export class StripeCheckout1795290000000 implements MigrationInterface {
  name = 'StripeCheckout1795290000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE purchases DROP CONSTRAINT purchases_status_check`);
    await queryRunner.query(
      `ALTER TABLE purchases ADD CONSTRAINT purchases_status_check
         CHECK (status IN ('pending', 'paid', 'failed', 'expired', 'refunded'))`,
    );
    await queryRunner.query(`ALTER TABLE purchases ADD COLUMN checkout_url text`);
    await queryRunner.query(`ALTER TABLE purchases ADD COLUMN checkout_expires_at timestamptz`);
    await queryRunner.query(`ALTER TABLE purchases ADD COLUMN payment_intent_id text`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX purchases_payment_intent_id_key ON purchases (payment_intent_id)`,
    );
    await queryRunner.query(`
      CREATE TABLE payment_events (
        event_id text PRIMARY KEY,
        provider text NOT NULL,
        type text NOT NULL,
        purchase_id uuid,
        received_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT payment_events_purchase_id_fkey FOREIGN KEY (purchase_id)
          REFERENCES purchases(id) ON DELETE SET NULL
      )`);
    await queryRunner.query(`CREATE INDEX payment_events_purchase_id_idx ON payment_events (purchase_id)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS payment_events`);
    await queryRunner.query(`DROP INDEX IF EXISTS purchases_payment_intent_id_key`);
    await queryRunner.query(`ALTER TABLE purchases DROP COLUMN IF EXISTS payment_intent_id`);
    await queryRunner.query(`ALTER TABLE purchases DROP COLUMN IF EXISTS checkout_expires_at`);
    await queryRunner.query(`ALTER TABLE purchases DROP COLUMN IF EXISTS checkout_url`);
    // Orders the old schema cannot hold any more count as failed.
    await queryRunner.query(`UPDATE purchases SET status = 'failed' WHERE status IN ('expired', 'refunded')`);
    await queryRunner.query(`ALTER TABLE purchases DROP CONSTRAINT purchases_status_check`);
    await queryRunner.query(
      `ALTER TABLE purchases ADD CONSTRAINT purchases_status_check CHECK (status IN ('pending', 'paid', 'failed'))`,
    );
  }
}
