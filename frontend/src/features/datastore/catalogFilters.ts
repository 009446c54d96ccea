import type { CatalogItem, ItemKind } from './catalogItem';

export const ALL_CATEGORIES = 'All';

export interface CatalogFilters {
  search: string;
  kinds: Record<ItemKind, boolean>;
  /** Empty means All. */
  categories: string[];
  /** Order of the datasets; left out: relevance with a search, newest without. */
  sort?: 'newest' | 'updated' | 'price_asc' | 'price_desc' | 'subscribers';
  /** Only live datasets (published connector tables kept fresh); left out when off. */
  liveOnly?: true;
}

export const SORT_LABELS: Array<[NonNullable<CatalogFilters['sort']> | '', string]> = [
  ['', 'Best match / newest'],
  ['newest', 'Newest'],
  ['updated', 'Recently updated'],
  ['price_asc', 'Price: low to high'],
  ['price_desc', 'Price: high to low'],
  ['subscribers', 'Most subscribers'],
];

/**
 * What "Sort by" shows: the chosen order, or the one the catalogue uses without a choice (best
 * match with a search, newest without), so the field never reads empty.
 */
export function sortLabel(filters: Pick<CatalogFilters, 'sort' | 'search'>): string {
  if (!filters.sort) return filters.search.trim() ? 'Best match' : 'Newest';
  return SORT_LABELS.find(([value]) => value === filters.sort)?.[1] ?? 'Newest';
}

export const DEFAULT_FILTERS: CatalogFilters = {
  search: '',
  kinds: { dataset: true, connector: true, app: true },
  categories: [],
};

/**
 * New selection of the category multi-select. Picking All clears the others; picking a category
 * drops All; a selection that becomes empty means All again.
 */
export function nextCategories(previous: string[], picked: string[]): string[] {
  // All is on display exactly when nothing was chosen, so seeing it in `picked` otherwise means it was just picked.
  const addedAll = picked.includes(ALL_CATEGORIES) && previous.length > 0;
  if (addedAll) return [];
  return picked.filter((category) => category !== ALL_CATEGORIES);
}

/** The value shown by the select: All when nothing is chosen. */
export function categorySelectValue(categories: string[]): string[] {
  return categories.length === 0 ? [ALL_CATEGORIES] : categories;
}

/** Client-side match for items loaded in full (connectors); datasets are filtered by the server. */
export function matchesFilters(
  item: Pick<CatalogItem, 'kind' | 'title' | 'category'>,
  filters: CatalogFilters,
): boolean {
  if (!filters.kinds[item.kind]) return false;
  // Only datasets are live: a connector is the source, not a listing kept fresh.
  if (filters.liveOnly && item.kind !== 'dataset') return false;
  const search = filters.search.trim().toLowerCase();
  if (search && !item.title.toLowerCase().includes(search)) return false;
  return filters.categories.length === 0 || filters.categories.includes(item.category);
}

/** Sorted, de-duplicated category names for the select, always including the chosen ones. */
export function categoryOptions(known: Iterable<string>, chosen: string[]): string[] {
  const names = new Set<string>();
  for (const name of [...known, ...chosen]) if (name && name !== ALL_CATEGORIES) names.add(name);
  return [...names].sort((left, right) => left.localeCompare(right));
}
