import { CatalogFilters, DEFAULT_FILTERS } from './catalogFilters';
import type { ItemKind } from './catalogItem';

const KINDS: ItemKind[] = ['dataset', 'connector', 'app'];

/**
 * Filters and page live in the address (?q=&hide=&category=&sort=&live=&page=) so that Back from a detail screen
 * returns to the same results. Only departures from the defaults are written.
 */
export function filtersFromParams(params: URLSearchParams): { filters: CatalogFilters; page: number } {
  const hidden = new Set((params.get('hide') ?? '').split(',').filter(Boolean));
  const kinds = Object.fromEntries(KINDS.map((kind) => [kind, !hidden.has(kind)])) as Record<
    ItemKind,
    boolean
  >;
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  return {
    filters: {
      search: params.get('q') ?? DEFAULT_FILTERS.search,
      kinds,
      categories: params.getAll('category'),
      ...sortFrom(params.get('sort')),
      ...(params.get('live') === '1' ? { liveOnly: true as const } : {}),
    },
    page,
  };
}

export function filtersToParams(filters: CatalogFilters, page: number): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.search) params.set('q', filters.search);
  const hidden = KINDS.filter((kind) => !filters.kinds[kind]);
  if (hidden.length) params.set('hide', hidden.join(','));
  for (const category of filters.categories) params.append('category', category);
  if (filters.sort) params.set('sort', filters.sort);
  if (filters.liveOnly) params.set('live', '1');
  if (page > 1) params.set('page', String(page));
  return params;
}

function sortFrom(value: string | null): Pick<CatalogFilters, 'sort'> {
  const known = ['newest', 'updated', 'price_asc', 'price_desc', 'subscribers'] as const;
  const sort = known.find((candidate) => candidate === value);
  return sort ? { sort } : {};
}
