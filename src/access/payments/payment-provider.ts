/** What the marketplace asks a payment provider to charge for one dataset purchase. */
export interface ChargeRequest {
  /** Decimal amount as stored (e.g. "19.99"). */
  amount: string;
  currency: string;
  userId: string;
  assetId: string;
  /** What the buyer sees on a hosted payment page (the dataset's title). */
  description: string;
  /** Our purchase id; a real provider uses it as the idempotency key. */
  purchaseId: string;
}

export interface ChargeResult {
  /**
   * 'paid' and 'failed' settle at once; 'pending' means the buyer pays on the provider's hosted
   * page (`checkout`) and the provider's signed notice settles the order later.
   */
  status: 'paid' | 'failed' | 'pending';
  /** The provider's reference for the payment (shown on the order). */
  reference: string;
  /** True when no real money moved (the built-in test provider, or Stripe test keys). */
  testMode: boolean;
  /** Why a charge failed, in words for the buyer. */
  failureMessage?: string;
  /** For a pending charge: where the buyer pays, and until when that page is open. */
  checkout?: { url: string; expiresAt: Date };
}

/** What the marketplace asks a hosted checkout to open for a recurring price. */
export interface SubscriptionRequest {
  /** Decimal amount per period as stored (e.g. "9.99"). */
  amount: string;
  currency: string;
  interval: 'month' | 'year';
  /** Free days before the first charge; 0 for none. */
  trialDays: number;
  userId: string;
  assetId: string;
  description: string;
  /** Our subscription id; the idempotency key, and in the provider's metadata. */
  subscriptionId: string;
}

/** A hosted page where the buyer starts a subscription. */
export interface SubscriptionCheckout {
  reference: string;
  testMode: boolean;
  checkout: { url: string; expiresAt: Date };
}

/**
 * The seam for card processing. The built-in provider is `test` (approves at once); `stripe`
 * (Stripe Checkout) answers 'pending' with a checkout page. PAYMENT_PROVIDER chooses one.
 */
export interface PaymentProvider {
  readonly name: string;
  /** True when charges move no real money; the checkout says so. */
  readonly testMode: boolean;
  /**
   * True when charge() opens a hosted checkout page over the network and answers 'pending': it
   * is then called outside the grant's transaction. Other providers settle inside it.
   */
  readonly hostedCheckout?: boolean;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /**
   * With a hosted checkout: opens the page where the buyer subscribes. Providers without one
   * (test) start subscriptions at once, without a call.
   */
  startSubscription?(request: SubscriptionRequest): Promise<SubscriptionCheckout>;
  /** Asks the provider to end the subscription at the end of its current period. */
  cancelAtPeriodEnd?(providerSubscriptionId: string): Promise<void>;
}

export const PAYMENT_PROVIDER = Symbol('PAYMENT_PROVIDER');
