/** The order recorded for a paid dataset, as the buyer sees it. */
export interface PurchaseView {
  id: string;
  /** Price at purchase time. */
  amount: number;
  currency: string;
  status: 'pending' | 'paid' | 'failed';
  provider: string;
  payment_reference: string | null;
  /** True when the payment went through the built-in test provider (no money moved). */
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

export interface RemoveResult {
  removed: boolean;
  assetId: string;
}
