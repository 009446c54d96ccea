import type { Purchase, PurchaseStatus } from './entities/purchase.entity';

/** The order recorded for a paid dataset, as the buyer sees it. */
export interface PurchaseView {
  id: string;
  /** Price at purchase time. */
  amount: number;
  currency: string;
  status: PurchaseStatus;
  provider: string;
  payment_reference: string | null;
  /** True when no money moved (the built-in test provider, or Stripe in test mode). */
  test_mode: boolean;
  created_at: string;
}

export interface GrantResult {
  granted: true;
  assetId: string;
  /** The caller already held access before this call. */
  already: boolean;
  reason: 'owner' | 'free' | 'purchase';
  purchase?: PurchaseView;
}

/** A paid dataset with a hosted checkout: the buyer pays there; access follows the provider's notice. */
export interface CheckoutStarted {
  granted: false;
  assetId: string;
  checkout_url: string;
  purchase: PurchaseView;
}

export interface RemoveResult {
  removed: boolean;
  assetId: string;
}

export function toPurchaseView(purchase: Purchase, testMode: boolean): PurchaseView {
  return {
    id: purchase.id,
    amount: Number(purchase.amount),
    currency: purchase.currency,
    status: purchase.status,
    provider: purchase.provider,
    payment_reference: purchase.paymentReference,
    test_mode: testMode,
    created_at: purchase.createdAt.toISOString(),
  };
}
