import { ApiProperty } from '@nestjs/swagger';
import type { BillingInterval } from '../../assets/entities/asset.entity';
import { Subscription, SUBSCRIPTION_STATUSES, SubscriptionStatus } from '../entities/subscription.entity';

/** A subscription as its buyer sees it. */
export class SubscriptionView {
  @ApiProperty()
  id: string;

  @ApiProperty({ type: String, nullable: true, description: 'Empty once the owner deleted the dataset' })
  asset_id: string | null;

  @ApiProperty()
  title: string;

  @ApiProperty({ description: 'Price per period, as it was when the buyer subscribed' })
  amount: number;

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({ enum: ['month', 'year'] })
  interval: BillingInterval;

  @ApiProperty()
  trial_days: number;

  @ApiProperty({ enum: SUBSCRIPTION_STATUSES })
  status: SubscriptionStatus;

  @ApiProperty()
  provider: string;

  @ApiProperty({ description: 'The subscription gives access now' })
  in_force: boolean;

  @ApiProperty({ description: 'Cancelled by the buyer: it ends at current_period_end, without renewal' })
  cancel_at_period_end: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date-time',
    description:
      'End of the current (or trial) period: the next renewal, or the end of access once cancelled',
  })
  current_period_end: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date-time',
    description:
      'When access ends unless the subscription recovers (grace end when past due, period end when cancelled)',
  })
  access_until: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;
}

const iso = (moment: Date | null) => (moment ? moment.toISOString() : null);

export function toSubscriptionView(subscription: Subscription, inForce: boolean): SubscriptionView {
  return {
    id: subscription.id,
    asset_id: subscription.assetId,
    title: subscription.title,
    amount: Number(subscription.amount),
    currency: subscription.currency,
    interval: subscription.billingInterval,
    trial_days: subscription.trialDays,
    status: subscription.status,
    provider: subscription.provider,
    in_force: inForce,
    cancel_at_period_end: subscription.cancelAtPeriodEnd,
    current_period_end: iso(subscription.currentPeriodEnd),
    access_until: iso(subscription.accessUntil),
    created_at: subscription.createdAt.toISOString(),
  };
}
