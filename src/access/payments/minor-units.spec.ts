import { toMinorUnits } from './minor-units';

describe('toMinorUnits', () => {
  it.each([
    ['19.99', 'USD', 1999],
    ['10', 'EUR', 1000],
    ['0.5', 'usd', 50],
    ['1234567890.01', 'USD', 123456789001],
    ['500.00', 'JPY', 500],
    ['7', 'krw', 7],
  ])('charges %s %s as %i', (amount, currency, expected) => {
    expect(toMinorUnits(amount, currency)).toBe(expected);
  });

  it('refuses what is not a stored price, and cents in a currency without them', () => {
    expect(() => toMinorUnits('-1', 'USD')).toThrow('Not a price');
    expect(() => toMinorUnits('1.999', 'USD')).toThrow('Not a price');
    expect(() => toMinorUnits('abc', 'USD')).toThrow('Not a price');
    expect(() => toMinorUnits('100.50', 'JPY')).toThrow('JPY has no minor unit');
  });
});
