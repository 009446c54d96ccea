/** What the marketplace asks a payment provider to charge for one dataset purchase. */
export interface ChargeRequest {
  /** Decimal amount as stored (e.g. "19.99"). */
  amount: string;
  currency: string;
  userId: string;
  assetId: string;
  /** Our purchase id; a real provider uses it as the idempotency key. */
  purchaseId: string;
}

export interface ChargeResult {
  status: 'paid' | 'failed';
  /** The provider's reference for the payment (shown on the order). */
  reference: string;
  /** True when no real money moved (the built-in test provider). */
  testMode: boolean;
  /** Why a charge failed, in words for the buyer. */
  failureMessage?: string;
}

/**
 * The seam for card processing. The built-in provider is `test` (approves at once); a real
 * provider (Stripe, Adyen, ...) implements the same interface and is bound to PAYMENT_PROVIDER.
 */
export interface PaymentProvider {
  readonly name: string;
  /** True when charges move no real money; the checkout says so. */
  readonly testMode: boolean;
  charge(request: ChargeRequest): Promise<ChargeResult>;
}

export const PAYMENT_PROVIDER = Symbol('PAYMENT_PROVIDER');
