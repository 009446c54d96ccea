import { formatPrice } from '../../components/price';
import { priceAmount } from './price';

// The shared display function, guarded here because every card and the detail screen show it.
describe('formatPrice', () => {
  it('shows Free for a zero price, whether number or numeric string', () => {
    expect(formatPrice(0)).toBe('Free');
    expect(formatPrice('0.00')).toBe('Free');
  });

  it('shows a dollar amount with two decimals above zero', () => {
    expect(formatPrice('12.5')).toBe('$12.50');
    expect(formatPrice(3)).toBe('$3.00');
    expect(formatPrice('1999.99')).toBe('$1999.99');
  });

  it('treats a missing or unreadable price as free', () => {
    expect(formatPrice(null)).toBe('Free');
    expect(formatPrice(undefined)).toBe('Free');
    expect(formatPrice('abc')).toBe('Free');
  });
});

describe('priceAmount', () => {
  it('reads numeric strings sent by the server', () => {
    expect(priceAmount('12.50')).toBe(12.5);
  });
});
