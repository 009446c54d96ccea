import { Injectable, Logger } from '@nestjs/common';
import type Stripe from 'stripe';
import { isUuid } from '../../common/uuid';
import type { Sql } from '../../database/sql';
import type { SubscriptionStatus } from '../entities/subscription.entity';
import { SubscriptionRow, SubscriptionStates } from './subscription-states';

const SUBSCRIPTION_EVENT_TYPES = new Set([
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
]);

/** Statuses Stripe reports that our table knows; anything newer is kept as the nearest we do. */
const KNOWN: SubscriptionStatus[] = [
  'incomplete',
  'incomplete_expired',
  'trialing',
  'active',
  'past_due',
  'unpaid',
  'paused',
  'canceled',
];

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);
const ourId = (value: string | null | undefined) => (isUuid(value) ? value : null);
const seconds = (value: number | null | undefined) => (value ? new Date(value * 1000) : null);

/** The events that concern subscriptions: their checkouts, the subscriptions and their invoices. */
export function isSubscriptionEvent(event: Stripe.Event): boolean {
  if (SUBSCRIPTION_EVENT_TYPES.has(event.type)) return true;
  return (
    event.type.startsWith('checkout.session.') &&
    (event.data.object as Stripe.Checkout.Session).mode === 'subscription'
  );
}

/**
 * Follows Stripe's subscriptions from their verified events (each event id is recorded first by
 * PaymentEventsService, so a replay changes nothing). Stripe promises no order of delivery, so:
 * - every event is matched on all the ids it carries (our id in metadata, the subscription id,
 *   the checkout session), and the row is locked while it is applied;
 * - the row keeps `state_at`, the `created` time of the newest event applied: an event created
 *   earlier is older news and is ignored; one created in the same second is applied;
 * - `customer.subscription.created` describes the first state, so it never overwrites a state
 *   already applied, even one of the same second;
 * - `canceled` is final (Stripe cannot revive a canceled subscription): nothing changes it.
 * The checkout's completion links the subscription and, while ours is still pending, starts it
 * (trialing with a trial, active without); its status then follows the subscription events.
 */
@Injectable()
export class StripeSubscriptionEvents {
  private readonly logger = new Logger(StripeSubscriptionEvents.name);

  constructor(private readonly states: SubscriptionStates) {}

  async apply(sql: Sql, event: Stripe.Event): Promise<void> {
    const at = new Date(event.created * 1000);
    if (event.type.startsWith('checkout.session.'))
      return this.checkout(sql, event.type, event.data.object as Stripe.Checkout.Session);
    if (event.type.startsWith('invoice.'))
      return this.invoice(sql, event.type, event.data.object as Stripe.Invoice, at);
    return this.subscription(sql, event.type, event.data.object as Stripe.Subscription, at);
  }

  private async checkout(sql: Sql, type: string, session: Stripe.Checkout.Session): Promise<void> {
    const row = await this.states.lock(sql, {
      id: ourId(session.metadata?.subscription_id ?? session.client_reference_id),
      sessionId: session.id,
    });
    if (!row) return this.unmatched(type, session.id);
    if (row.status !== 'pending') {
      await this.link(sql, row, idOf(session.subscription));
      return;
    }
    if (type === 'checkout.session.expired') {
      await sql(`UPDATE subscriptions SET status = 'expired', checkout_url = NULL WHERE id = $1`, [row.id]);
      return;
    }
    const settled = session.payment_status === 'paid' || session.payment_status === 'no_payment_required';
    if (type !== 'checkout.session.completed' || !settled)
      return this.link(sql, row, idOf(session.subscription));
    await this.states.apply(sql, row, {
      status: row.trial_days > 0 ? 'trialing' : 'active',
      cancelAtPeriodEnd: row.cancel_at_period_end,
      currentPeriodEnd: row.current_period_end,
      // Not a subscription state of Stripe's: any subscription event may still overwrite it.
      at: null,
      providerSubscriptionId: idOf(session.subscription),
    });
  }

  private async subscription(
    sql: Sql,
    type: string,
    subscription: Stripe.Subscription,
    at: Date,
  ): Promise<void> {
    const row = await this.states.lock(sql, {
      id: ourId(subscription.metadata?.subscription_id),
      providerSubscriptionId: subscription.id,
    });
    if (!row) return this.unmatched(type, subscription.id);
    if (!this.isNews(row, at)) return this.link(sql, row, subscription.id);
    if (type === 'customer.subscription.created' && row.state_at) return this.link(sql, row, subscription.id);
    const status = type === 'customer.subscription.deleted' ? 'canceled' : known(subscription.status);
    await this.states.apply(sql, row, {
      status,
      cancelAtPeriodEnd: subscription.cancel_at_period_end,
      currentPeriodEnd: seconds(subscription.items?.data?.[0]?.current_period_end) ?? row.current_period_end,
      at,
      providerSubscriptionId: subscription.id,
    });
  }

  /**
   * A paid invoice ends a past-due state (a trial's first, zero invoice leaves it trialing); a
   * failed one makes the subscription past due, from which the grace period counts.
   */
  private async invoice(sql: Sql, type: string, invoice: Stripe.Invoice, at: Date): Promise<void> {
    const details = invoice.parent?.subscription_details;
    const row = await this.states.lock(sql, {
      id: ourId(details?.metadata?.subscription_id),
      providerSubscriptionId: idOf(details?.subscription),
    });
    if (!details || !row) return this.unmatched(type, invoice.id ?? '');
    if (!this.isNews(row, at)) return;
    let status = row.status;
    if (type === 'invoice.payment_failed' && ['trialing', 'active', 'past_due'].includes(row.status))
      status = 'past_due';
    if (type === 'invoice.paid' && ['pending', 'incomplete', 'past_due', 'unpaid'].includes(row.status))
      status =
        row.status === 'pending' && invoice.amount_paid === 0 && row.trial_days > 0 ? 'trialing' : 'active';
    const servedUntil = seconds(invoice.lines?.data?.[0]?.period?.end);
    const periodEnd =
      type === 'invoice.paid' &&
      servedUntil &&
      (!row.current_period_end || servedUntil > row.current_period_end)
        ? servedUntil
        : row.current_period_end;
    await this.states.apply(sql, row, {
      status,
      cancelAtPeriodEnd: row.cancel_at_period_end,
      currentPeriodEnd: periodEnd,
      at,
      providerSubscriptionId: idOf(details.subscription),
    });
  }

  /** Newer than (or as new as) what the row holds, and the row not canceled for good. */
  private isNews(row: SubscriptionRow, at: Date): boolean {
    if (row.status === 'canceled') return false;
    return !row.state_at || at.getTime() >= row.state_at.getTime();
  }

  private async link(sql: Sql, row: SubscriptionRow, providerSubscriptionId: string | null): Promise<void> {
    if (!providerSubscriptionId || row.provider_subscription_id) return;
    await sql(`UPDATE subscriptions SET provider_subscription_id = $2 WHERE id = $1`, [
      row.id,
      providerSubscriptionId,
    ]);
  }

  private unmatched(type: string, id: string): void {
    this.logger.warn(`Stripe ${type} for ${id} matches no subscription of ours`);
  }
}

function known(status: string): SubscriptionStatus {
  return (KNOWN as string[]).includes(status) ? (status as SubscriptionStatus) : 'incomplete';
}
