import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Recurring prices and subscriptions. A listing's price is one-off (billing_interval NULL) or per
 * month or year with an optional free trial. A subscription keeps the price it was taken at, and
 * while it is in force its holder has a grant with reason 'subscription', so every read path
 * that asks the access gate stays unchanged. state_at is the creation time of the newest provider
 * event applied, so an older event delivered late never overwrites a newer state.
 */
export class ListingSubscriptions1796100000401 implements MigrationInterface {
  name = 'ListingSubscriptions1796100000401';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE assets
        ADD COLUMN billing_interval text CONSTRAINT assets_billing_interval_check
          CHECK (billing_interval IN ('month', 'year')),
        ADD COLUMN trial_days integer NOT NULL DEFAULT 0 CONSTRAINT assets_trial_days_check
          CHECK (trial_days BETWEEN 0 AND 90)`);
    await queryRunner.query(`
      ALTER TABLE access_grants DROP CONSTRAINT access_grants_reason_check,
        ADD CONSTRAINT access_grants_reason_check
          CHECK (reason IN ('owner', 'free', 'purchase', 'subscription'))`);
    await queryRunner.query(`
      CREATE TABLE subscriptions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL CONSTRAINT subscriptions_user_id_fkey REFERENCES users(id) ON DELETE CASCADE,
        asset_id uuid CONSTRAINT subscriptions_asset_id_fkey REFERENCES assets(id) ON DELETE SET NULL,
        title text NOT NULL DEFAULT '',
        amount numeric(12,2) NOT NULL CONSTRAINT subscriptions_amount_check CHECK (amount >= 0),
        currency text NOT NULL,
        billing_interval text NOT NULL CONSTRAINT subscriptions_billing_interval_check
          CHECK (billing_interval IN ('month', 'year')),
        trial_days integer NOT NULL DEFAULT 0,
        provider text NOT NULL,
        status text NOT NULL CONSTRAINT subscriptions_status_check CHECK (status IN (
          'pending', 'expired', 'incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due',
          'unpaid', 'paused', 'canceled')),
        provider_subscription_id text,
        checkout_session_id text,
        checkout_url text,
        checkout_expires_at timestamptz,
        current_period_end timestamptz,
        cancel_at_period_end boolean NOT NULL DEFAULT false,
        past_due_since timestamptz,
        access_until timestamptz,
        state_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX subscriptions_user_id_idx ON subscriptions (user_id)`);
    await queryRunner.query(`CREATE INDEX subscriptions_asset_id_idx ON subscriptions (asset_id)`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX subscriptions_provider_subscription_id_key ON subscriptions (provider_subscription_id)`,
    );
    await queryRunner.query(
      `CREATE INDEX subscriptions_checkout_session_id_idx ON subscriptions (checkout_session_id)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE subscriptions`);
    await queryRunner.query(`DELETE FROM access_grants WHERE reason = 'subscription'`);
    await queryRunner.query(`
      ALTER TABLE access_grants DROP CONSTRAINT access_grants_reason_check,
        ADD CONSTRAINT access_grants_reason_check CHECK (reason IN ('owner', 'free', 'purchase'))`);
    await queryRunner.query(`ALTER TABLE assets DROP COLUMN trial_days, DROP COLUMN billing_interval`);
  }
}
