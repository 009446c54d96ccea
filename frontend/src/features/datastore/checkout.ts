/**
 * Where to send the buyer after Buy: the payment provider's hosted checkout page when the grant
 * answered one (Stripe), else null (granted at once). Only https pages are followed.
 */
export function checkoutUrlOf(answer: unknown): string | null {
  if (typeof answer !== 'object' || answer === null) return null;
  const url = (answer as { checkout_url?: unknown }).checkout_url;
  if (typeof url !== 'string') return null;
  try {
    return new URL(url).protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

export type CheckoutReturn = 'success' | 'cancelled';

/** The `?checkout=` value Stripe sends the buyer back with, if any. */
export function checkoutReturnOf(search: URLSearchParams): CheckoutReturn | null {
  const value = search.get('checkout');
  return value === 'success' || value === 'cancelled' ? value : null;
}

/** What the dataset page says after the buyer comes back from the checkout page. */
export function checkoutReturnNotice(
  returned: CheckoutReturn,
  hasAccess: boolean,
): { severity: 'info' | 'success'; text: string } {
  if (returned === 'cancelled')
    return { severity: 'info', text: 'Checkout cancelled: you have not been charged.' };
  if (hasAccess) return { severity: 'success', text: 'Payment confirmed: you now have full access.' };
  return {
    severity: 'info',
    text: 'Thank you! Your payment is being confirmed; full access appears here in a moment.',
  };
}

/** The Buy dialog's note on how the payment works, by provider; null when there is nothing to say. */
export function paymentNote(mode: { provider: string; test_mode: boolean } | undefined): string | null {
  if (!mode) return null;
  if (mode.provider === 'stripe') {
    const base =
      'You pay on Stripe’s secure checkout page; access follows as soon as Stripe confirms the payment.';
    return mode.test_mode ? `${base} Stripe test mode: use a test card, no money moves.` : base;
  }
  return mode.test_mode ? 'Test mode: the purchase is approved at once and no card is charged.' : null;
}
