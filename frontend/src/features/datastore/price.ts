/** The server sends numeric columns as strings ("12.50"); anything unreadable counts as free. */
export function priceAmount(price: number | string | null | undefined): number {
  const amount = typeof price === 'number' ? price : Number.parseFloat(price ?? '');
  return Number.isFinite(amount) && amount > 0 ? amount : 0;
}
