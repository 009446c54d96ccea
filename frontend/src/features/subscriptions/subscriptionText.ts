/** Words for subscriptions and recurring prices, shared by the Manage page and the price form. */

export type BillingChoice = 'one_off' | 'month' | 'year';

interface SubscriptionFacts {
  amount: number;
  currency: string;
  interval: 'month' | 'year';
  status: string;
  in_force: boolean;
  cancel_at_period_end: boolean;
  current_period_end: string | null;
  access_until: string | null;
}

const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });

/** "$9.99 / month", "120.00 EUR / year". */
export function recurringPrice(amount: number, currency: string, interval: 'month' | 'year'): string {
  const price = currency === 'USD' ? `$${amount.toFixed(2)}` : `${amount.toFixed(2)} ${currency}`;
  return `${price} / ${interval}`;
}

/** What the buyer needs to know about when it renews or ends. */
export function renewalText(subscription: SubscriptionFacts): string {
  if (!subscription.in_force) return 'Ended';
  if (subscription.status === 'past_due' && subscription.access_until)
    return `Payment failed: access until ${day(subscription.access_until)} unless the payment goes through`;
  if (subscription.cancel_at_period_end && subscription.access_until)
    return `Cancelled: access until ${day(subscription.access_until)}`;
  const next = subscription.current_period_end ? day(subscription.current_period_end) : null;
  if (subscription.status === 'trialing') return next ? `Free trial until ${next}` : 'Free trial';
  return next ? `Renews on ${next}` : 'Active';
}

/** Cancelling is offered while it renews: not once cancelled, nor after it ended. */
export function canCancel(subscription: SubscriptionFacts): boolean {
  return subscription.in_force && !subscription.cancel_at_period_end;
}

/** The trial field's problem, or null: whole days from 0 to 90 (blank means none). */
export function trialDaysProblem(text: string): string | null {
  if (text.trim() === '') return null;
  const days = Number(text);
  return Number.isInteger(days) && days >= 0 && days <= 90 ? null : 'Whole days from 0 to 90';
}

/** The Buy dialog's words: a one-off price is bought, a recurring one subscribed to. */
export function buyWords(item: {
  title: string;
  price: number | string;
  billingInterval?: 'month' | 'year' | null;
  trialDays?: number;
}): { title: string; text: string; action: string } {
  const amount = Number(item.price);
  if (!item.billingInterval) {
    const price = `$${amount.toFixed(2)}`;
    return {
      title: `Buy ${item.title}`,
      text: `You get full access to this dataset for ${price}.`,
      action: `Buy for ${price}`,
    };
  }
  const price = recurringPrice(amount, 'USD', item.billingInterval);
  const trial = item.trialDays ? ` The first ${item.trialDays} days are free.` : '';
  return {
    title: `Subscribe to ${item.title}`,
    text: `You get full access while subscribed, for ${price}.${trial} Cancel any time under Manage Data.`,
    action: `Subscribe for ${price}`,
  };
}
