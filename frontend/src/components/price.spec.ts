import { formatPrice } from './price';

describe('formatPrice', () => {
  it("shows 'Free' for a zero price", () => {
    expect(formatPrice(0)).toBe('Free');
    expect(formatPrice('0.00')).toBe('Free');
  });

  it('shows a dollar amount with two decimals otherwise', () => {
    expect(formatPrice(5)).toBe('$5.00');
    expect(formatPrice('12.5')).toBe('$12.50');
    expect(formatPrice(1234.567)).toBe('$1234.57');
  });

  it("treats a missing or unreadable price as 'Free'", () => {
    expect(formatPrice(null)).toBe('Free');
    expect(formatPrice(undefined)).toBe('Free');
    expect(formatPrice('abc')).toBe('Free');
  });
});
