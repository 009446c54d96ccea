import { priceAmount } from './price';

export type ItemKind = 'dataset' | 'connector' | 'app';

/** One card of the catalogue, whatever its source (dataset or connector). */
export interface CatalogItem {
  kind: ItemKind;
  id: string;
  title: string;
  description: string;
  category: string;
  price: number | string;
  /** Datasets: null or absent for a one-off price; the period of a recurring one (a subscription). */
  billingInterval?: 'month' | 'year' | null;
  /** Datasets with a recurring price: free days before the first charge. */
  trialDays?: number;
  image?: string | null;
  isPrivate: boolean;
  owned: boolean;
  /** Datasets: the user holds access (owners count). */
  hasAccess: boolean;
  /** Datasets: the user paid for it once; getting it back after a Remove costs nothing. */
  bought?: boolean;
  /** Datasets published from a connection and kept fresh: when their rows last changed, and since when they are overdue. */
  live?: { updatedAt: string | null; staleSince: string | null };
  /** Connectors: the user has an instance of it. */
  hasInstance: boolean;
  /** Connectors: credentials asked for when connecting. */
  authFields?: unknown;
  /** Connectors: required settings must be filled in the setup form before connecting. */
  needsSetup?: boolean;
}

/** A dataset bought once and removed: the server grants it again without charging. */
export const GET_AGAIN = 'Get again — free';

export type CardAction = 'Connect' | 'Manage' | 'Remove' | 'Get' | 'Buy' | typeof GET_AGAIN;

/**
 * Card button: Connect or Manage for a connector; Remove, Buy or Get for a dataset. None on the
 * user's own dataset: there is nothing to get, and its access cannot be removed (it is managed in
 * Manage → Uploaded Data).
 */
export function cardAction(
  item: Pick<CatalogItem, 'kind' | 'price' | 'hasAccess' | 'hasInstance' | 'bought'> & { owned?: boolean },
): CardAction | null {
  if (item.kind === 'connector') return item.hasInstance ? 'Manage' : 'Connect';
  if (item.owned) return null;
  if (item.hasAccess) return 'Remove';
  if (priceAmount(item.price) <= 0) return 'Get';
  return item.bought ? GET_AGAIN : 'Buy';
}

/** Only non-owned, non-connector items show a price. */
export function showsPrice(item: Pick<CatalogItem, 'kind' | 'owned'>): boolean {
  return item.kind !== 'connector' && !item.owned;
}

/** In place of the price of a paid dataset the user bought once: it costs them nothing now. */
export const BOUGHT_NOTE = 'Bought — free for you';

/** The price line of a dataset for this user: its price, or that they already paid for it. */
export function priceNote(item: Pick<CatalogItem, 'price' | 'bought'>): string | null {
  return item.bought && priceAmount(item.price) > 0 ? BOUGHT_NOTE : null;
}

export function profilePath(item: Pick<CatalogItem, 'kind' | 'id'>): string {
  return item.kind === 'connector' ? `/connector_profile/${item.id}` : `/dataset_profile/${item.id}`;
}
