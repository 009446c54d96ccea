import { buyWords, canCancel, recurringPrice, renewalText, trialDaysProblem } from './subscriptionText';

const base = {
  amount: 9.99,
  currency: 'USD',
  interval: 'month' as const,
  status: 'active',
  in_force: true,
  cancel_at_period_end: false,
  current_period_end: '2026-12-29T10:00:00.000Z',
  access_until: null,
};

describe('subscription texts', () => {
  it('says the price per period', () => {
    expect(recurringPrice(9.99, 'USD', 'month')).toBe('$9.99 / month');
    expect(recurringPrice(120, 'EUR', 'year')).toBe('120.00 EUR / year');
  });

  it('says when it renews, ends or runs out', () => {
    expect(renewalText(base)).toBe('Renews on 29 Dec 2026');
    expect(renewalText({ ...base, status: 'trialing' })).toBe('Free trial until 29 Dec 2026');
    expect(
      renewalText({ ...base, cancel_at_period_end: true, access_until: '2026-12-29T10:00:00.000Z' }),
    ).toBe('Cancelled: access until 29 Dec 2026');
    expect(renewalText({ ...base, status: 'past_due', access_until: '2026-12-06T10:00:00.000Z' })).toBe(
      'Payment failed: access until 6 Dec 2026 unless the payment goes through',
    );
    expect(renewalText({ ...base, status: 'canceled', in_force: false })).toBe('Ended');
  });

  it('offers Cancel only while the subscription renews', () => {
    expect(canCancel(base)).toBe(true);
    expect(canCancel({ ...base, cancel_at_period_end: true })).toBe(false);
    expect(canCancel({ ...base, in_force: false })).toBe(false);
  });

  it('takes whole trial days from 0 to 90', () => {
    expect(trialDaysProblem('')).toBeNull();
    expect(trialDaysProblem('14')).toBeNull();
    expect(trialDaysProblem('90')).toBeNull();
    expect(trialDaysProblem('91')).toBe('Whole days from 0 to 90');
    expect(trialDaysProblem('1.5')).toBe('Whole days from 0 to 90');
    expect(trialDaysProblem('-1')).toBe('Whole days from 0 to 90');
  });
});

describe('buyWords', () => {
  it('buys a one-off price and subscribes to a recurring one, saying its trial', () => {
    expect(buyWords({ title: 'Prices', price: 19.99, billingInterval: null })).toEqual({
      title: 'Buy Prices',
      text: 'You get full access to this dataset for $19.99.',
      action: 'Buy for $19.99',
    });
    expect(buyWords({ title: 'Prices', price: 9.99, billingInterval: 'month', trialDays: 14 })).toEqual({
      title: 'Subscribe to Prices',
      text: 'You get full access while subscribed, for $9.99 / month. The first 14 days are free. Cancel any time under Manage Data.',
      action: 'Subscribe for $9.99 / month',
    });
  });
});
