/** Currencies Stripe counts in whole units (no cents): https://docs.stripe.com/currencies#zero-decimal */
const ZERO_DECIMAL_CURRENCIES = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);

/**
 * A stored decimal price ("19.99") as the integer amount payment APIs expect (1999 cents), read
 * from the text so no floating-point rounding can change the price.
 */
export function toMinorUnits(amount: string, currency: string): number {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (!match) throw new Error(`Not a price: ${JSON.stringify(amount)}`);
  const [, whole, fraction = ''] = match;
  if (ZERO_DECIMAL_CURRENCIES.has(currency.toUpperCase())) {
    if (/[1-9]/.test(fraction)) throw new Error(`${currency} has no minor unit: ${amount} cannot be charged`);
    return Number(whole);
  }
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}
