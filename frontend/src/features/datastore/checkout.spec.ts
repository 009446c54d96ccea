import { checkoutReturnNotice, checkoutReturnOf, checkoutUrlOf, paymentNote } from './checkout';

describe('checkoutUrlOf', () => {
  it('follows the https checkout page a hosted checkout answers', () => {
    const url = 'https://checkout.stripe.com/c/pay/cs_test_123';
    expect(checkoutUrlOf({ granted: false, checkout_url: url })).toBe(url);
  });

  it('answers null for a grant given at once and for anything but an https URL', () => {
    expect(checkoutUrlOf({ granted: true, reason: 'purchase' })).toBeNull();
    expect(checkoutUrlOf({ checkout_url: 'javascript:alert(1)' })).toBeNull();
    expect(checkoutUrlOf({ checkout_url: 'http://checkout.example.com' })).toBeNull();
    expect(checkoutUrlOf({ checkout_url: 'not a url' })).toBeNull();
    expect(checkoutUrlOf(undefined)).toBeNull();
  });
});

describe('checkout return', () => {
  it('reads only the two values Stripe sends back', () => {
    expect(checkoutReturnOf(new URLSearchParams('checkout=success'))).toBe('success');
    expect(checkoutReturnOf(new URLSearchParams('checkout=cancelled'))).toBe('cancelled');
    expect(checkoutReturnOf(new URLSearchParams('checkout=other'))).toBeNull();
    expect(checkoutReturnOf(new URLSearchParams(''))).toBeNull();
  });

  it('says the payment is being confirmed until access arrives, then that it is confirmed', () => {
    expect(checkoutReturnNotice('success', false)).toEqual({
      severity: 'info',
      text: 'Thank you! Your payment is being confirmed; full access appears here in a moment.',
    });
    expect(checkoutReturnNotice('success', true)).toEqual({
      severity: 'success',
      text: 'Payment confirmed: you now have full access.',
    });
    expect(checkoutReturnNotice('cancelled', false).text).toBe(
      'Checkout cancelled: you have not been charged.',
    );
  });
});

describe('paymentNote', () => {
  it('keeps the test provider’s note and says nothing for a live provider without checkout', () => {
    expect(paymentNote({ provider: 'test', test_mode: true })).toBe(
      'Test mode: the purchase is approved at once and no card is charged.',
    );
    expect(paymentNote({ provider: 'acme', test_mode: false })).toBeNull();
    expect(paymentNote(undefined)).toBeNull();
  });

  it('tells a Stripe buyer where they pay, and about test cards in Stripe test mode', () => {
    expect(paymentNote({ provider: 'stripe', test_mode: false })).toBe(
      'You pay on Stripe’s secure checkout page; access follows as soon as Stripe confirms the payment.',
    );
    expect(paymentNote({ provider: 'stripe', test_mode: true })).toMatch(
      /confirms the payment\. Stripe test mode: use a test card, no money moves\.$/,
    );
  });
});
