import { addInterval } from './subscriptions.service';

describe('addInterval', () => {
  it.each([
    ['2026-01-15T10:00:00.000Z', 'month', '2026-02-15T10:00:00.000Z'],
    ['2026-01-31T10:00:00.000Z', 'month', '2026-02-28T10:00:00.000Z'],
    ['2028-01-31T10:00:00.000Z', 'month', '2028-02-29T10:00:00.000Z'],
    ['2026-12-31T23:59:59.000Z', 'month', '2027-01-31T23:59:59.000Z'],
    ['2028-02-29T00:00:00.000Z', 'year', '2029-02-28T00:00:00.000Z'],
    ['2026-11-29T12:00:00.000Z', 'year', '2027-11-29T12:00:00.000Z'],
  ] as const)('renews %s after one %s on %s', (from, interval, expected) => {
    expect(addInterval(new Date(from), interval).toISOString()).toBe(expected);
  });
});
