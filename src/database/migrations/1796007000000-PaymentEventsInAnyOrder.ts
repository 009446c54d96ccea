import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stripe may deliver a refund before the completion of the same payment: each event keeps the
 * payment intent it names and whether it refunded the payment in full, so a completion arriving
 * later finds the refund and grants nothing.
 */
export class PaymentEventsInAnyOrder1796007000000 implements MigrationInterface {
  name = 'PaymentEventsInAnyOrder1796007000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE payment_events ADD COLUMN payment_intent_id text`);
    await queryRunner.query(
      `ALTER TABLE payment_events ADD COLUMN full_refund boolean NOT NULL DEFAULT false`,
    );
    await queryRunner.query(
      `CREATE INDEX payment_events_full_refund_idx ON payment_events (payment_intent_id) WHERE full_refund`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS payment_events_full_refund_idx`);
    await queryRunner.query(`ALTER TABLE payment_events DROP COLUMN IF EXISTS full_refund`);
    await queryRunner.query(`ALTER TABLE payment_events DROP COLUMN IF EXISTS payment_intent_id`);
  }
}
