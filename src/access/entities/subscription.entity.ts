import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { Relation } from 'typeorm';
import { Asset, type BillingInterval } from '../../assets/entities/asset.entity';
import { User } from '../../users/entities/user.entity';

/**
 * Our own states ('pending' while the checkout page is open, 'expired' when it closed unpaid)
 * followed by Stripe's subscription statuses, which the provider's events set.
 */
export const SUBSCRIPTION_STATUSES = [
  'pending',
  'expired',
  'incomplete',
  'incomplete_expired',
  'trialing',
  'active',
  'past_due',
  'unpaid',
  'paused',
  'canceled',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/**
 * A buyer's subscription to a dataset with a recurring price, at the price it was taken at (a
 * seller's later price change is for new subscribers only). While it is in force (see
 * subscriptionInForce in the access gate) its holder has a grant with reason 'subscription'.
 */
@Entity({ name: 'subscriptions' })
@Check('subscriptions_amount_check', `amount >= 0`)
@Check('subscriptions_billing_interval_check', `billing_interval IN ('month', 'year')`)
@Check(
  'subscriptions_status_check',
  `status IN ('pending', 'expired', 'incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'unpaid', 'paused', 'canceled')`,
)
export class Subscription {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('subscriptions_user_id_idx')
  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'subscriptions_user_id_fkey' })
  user?: Relation<User>;

  @Index('subscriptions_asset_id_idx')
  @Column({ name: 'asset_id', type: 'uuid', nullable: true })
  assetId: string | null;

  @ManyToOne(() => Asset, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'asset_id', foreignKeyConstraintName: 'subscriptions_asset_id_fkey' })
  asset?: Relation<Asset>;

  @Column({ type: 'text', default: '' })
  title: string;

  /** The price per period as it was when the buyer subscribed. */
  @Column({ type: 'numeric', precision: 12, scale: 2 })
  amount: string;

  @Column({ type: 'text' })
  currency: string;

  @Column({ name: 'billing_interval', type: 'text' })
  billingInterval: BillingInterval;

  @Column({ name: 'trial_days', type: 'integer', default: 0 })
  trialDays: number;

  @Column({ type: 'text' })
  provider: string;

  @Column({ type: 'text' })
  status: SubscriptionStatus;

  /** Stripe's subscription id (sub_…), or the test provider's. */
  @Index('subscriptions_provider_subscription_id_key', { unique: true })
  @Column({ name: 'provider_subscription_id', type: 'text', nullable: true })
  providerSubscriptionId: string | null;

  @Index('subscriptions_checkout_session_id_idx')
  @Column({ name: 'checkout_session_id', type: 'text', nullable: true })
  checkoutSessionId: string | null;

  @Column({ name: 'checkout_url', type: 'text', nullable: true })
  checkoutUrl: string | null;

  @Column({ name: 'checkout_expires_at', type: 'timestamptz', nullable: true })
  checkoutExpiresAt: Date | null;

  /** When the current (or trial) period ends: the next renewal, or the end of access once cancelled. */
  @Column({ name: 'current_period_end', type: 'timestamptz', nullable: true })
  currentPeriodEnd: Date | null;

  @Column({ name: 'cancel_at_period_end', type: 'boolean', default: false })
  cancelAtPeriodEnd: boolean;

  /** When a renewal first failed; the grace period counts from here. */
  @Column({ name: 'past_due_since', type: 'timestamptz', nullable: true })
  pastDueSince: Date | null;

  /** Null: no end in sight; otherwise access ends then (period end once cancelled, grace end when past due). */
  @Column({ name: 'access_until', type: 'timestamptz', nullable: true })
  accessUntil: Date | null;

  /** Creation time of the newest provider event applied: an older one delivered later is ignored. */
  @Column({ name: 'state_at', type: 'timestamptz', nullable: true })
  stateAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
