import { DEFAULT_FILTERS } from './catalogFilters';
import { filtersFromParams, filtersToParams } from './filtersInUrl';

describe('filters in the address', () => {
  it('read the defaults from an empty address: all kinds on, All categories, page 1', () => {
    expect(filtersFromParams(new URLSearchParams())).toEqual({ filters: DEFAULT_FILTERS, page: 1 });
  });

  it('write nothing for the defaults', () => {
    expect(filtersToParams(DEFAULT_FILTERS, 1).toString()).toBe('');
  });

  it('round-trip search, hidden kinds, categories and page', () => {
    const filters = {
      search: 'rain',
      kinds: { dataset: true, connector: false, app: false },
      categories: ['Science', 'Finance'],
    };
    const params = filtersToParams(filters, 3);
    expect(params.toString()).toBe('q=rain&hide=connector%2Capp&category=Science&category=Finance&page=3');
    expect(filtersFromParams(params)).toEqual({ filters, page: 3 });
  });

  it('round-trip the order of the datasets and ignore an unknown one', () => {
    const filters = { ...DEFAULT_FILTERS, sort: 'price_desc' as const };
    expect(filtersToParams(filters, 1).toString()).toBe('sort=price_desc');
    expect(filtersFromParams(new URLSearchParams('sort=price_desc')).filters).toEqual(filters);
    expect(filtersFromParams(new URLSearchParams('sort=random')).filters).toEqual(DEFAULT_FILTERS);
  });

  it('round-trip "Live only" and the "Recently updated" order', () => {
    const filters = { ...DEFAULT_FILTERS, sort: 'updated' as const, liveOnly: true as const };
    const params = filtersToParams(filters, 1);
    expect(params.toString()).toBe('sort=updated&live=1');
    expect(filtersFromParams(params).filters).toEqual(filters);
  });

  it('falls back to page 1 for a nonsense page', () => {
    expect(filtersFromParams(new URLSearchParams('page=abc')).page).toBe(1);
  });
});
