/** Catalogue prices: 'Free' if zero, otherwise a dollar amount with two decimals. */
export function formatPrice(price: number | string | null | undefined): string {
  const amount = typeof price === 'string' ? Number(price) : (price ?? 0);
  if (!Number.isFinite(amount) || amount <= 0) return 'Free';
  return `$${amount.toFixed(2)}`;
}
