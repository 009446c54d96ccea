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
  image?: string | null;
  isPrivate: boolean;
  owned: boolean;
  /** Datasets: the user holds access (owners count). */
  hasAccess: boolean;
  /** Datasets published from a connection and kept fresh: when their rows last changed, and since when they are overdue. */
  live?: { updatedAt: string | null; staleSince: string | null };
  /** Connectors: the user has an instance of it. */
  hasInstance: boolean;
  /** Connectors: credentials asked for when connecting. */
  authFields?: unknown;
  /** Connectors: required settings must be filled in the setup form before connecting. */
  needsSetup?: boolean;
}

export type CardAction = 'Connect' | 'Manage' | 'Remove' | 'Get' | 'Buy';

/**
 * Card button: Connect or Manage for a connector; Remove, Buy or Get for a dataset. None on the
 * user's own dataset: there is nothing to get, and its access cannot be removed (it is managed in
 * Manage → Uploaded Data).
 */
export function cardAction(
  item: Pick<CatalogItem, 'kind' | 'price' | 'hasAccess' | 'hasInstance'> & { owned?: boolean },
): CardAction | null {
  if (item.kind === 'connector') return item.hasInstance ? 'Manage' : 'Connect';
  if (item.owned) return null;
  if (item.hasAccess) return 'Remove';
  return priceAmount(item.price) > 0 ? 'Buy' : 'Get';
}

/** Only non-owned, non-connector items show a price. */
export function showsPrice(item: Pick<CatalogItem, 'kind' | 'owned'>): boolean {
  return item.kind !== 'connector' && !item.owned;
}

export function profilePath(item: Pick<CatalogItem, 'kind' | 'id'>): string {
  return item.kind === 'connector' ? `/connector_profile/${item.id}` : `/dataset_profile/${item.id}`;
}
