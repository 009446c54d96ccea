/** Landing-page pricing for companies. Amounts in euros per test purchase. */
export const ON_DEMAND_FEE_EUR = 30;
export const MAX_FEE_SAVING_PERCENT = 80;

export interface PricingPlan {
  id: 'on-demand' | 'pack-50' | 'pack-100' | 'corporate';
  name: string;
  /** Fee per test purchase; undefined for the corporate plan, which is agreed individually. */
  feeEur?: number;
  purchases?: number;
  note: string;
  highlighted?: boolean;
}

export const PRICING_PLANS: PricingPlan[] = [
  {
    id: 'on-demand',
    name: 'On demand',
    feeEur: ON_DEMAND_FEE_EUR,
    note: 'fee per test purchase, plus product plus shipping',
  },
  { id: 'pack-50', name: '50-pack', feeEur: 25, purchases: 50, note: 'each, plus product plus shipping' },
  {
    id: 'pack-100',
    name: '100-pack',
    feeEur: 22,
    purchases: 100,
    note: 'each, plus product plus shipping',
    highlighted: true,
  },
  { id: 'corporate', name: 'Corporate plan', note: 'Custom volume, paid by invoice' },
];

/** Whole-percent saving of a pack fee against the on-demand fee (25 € -> 17 %, 22 € -> 27 %). */
export function savingPercent(feeEur: number, baseFeeEur: number = ON_DEMAND_FEE_EUR): number {
  if (baseFeeEur <= 0 || feeEur >= baseFeeEur) return 0;
  return Math.round(((baseFeeEur - feeEur) / baseFeeEur) * 100);
}

/** Euro amounts as the landing page shows them: "€30", "€22.50". */
export function formatEuro(amount: number): string {
  return Number.isInteger(amount) ? `€${amount}` : `€${amount.toFixed(2)}`;
}
