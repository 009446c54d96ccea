import {
  sortLabel,
  ALL_CATEGORIES,
  categoryOptions,
  categorySelectValue,
  DEFAULT_FILTERS,
  matchesFilters,
  nextCategories,
} from './catalogFilters';

describe('catalogue filters', () => {
  it('have dataset, connector and app switched on by default with All categories', () => {
    expect(DEFAULT_FILTERS.kinds).toEqual({ dataset: true, connector: true, app: true });
    expect(categorySelectValue(DEFAULT_FILTERS.categories)).toEqual([ALL_CATEGORIES]);
  });

  it('match titles case-insensitively by the search text', () => {
    const item = { kind: 'connector' as const, title: 'Weather API', category: 'API' };
    expect(matchesFilters(item, { ...DEFAULT_FILTERS, search: 'weath' })).toBe(true);
    expect(matchesFilters(item, { ...DEFAULT_FILTERS, search: 'stock' })).toBe(false);
  });

  it('hide an item whose kind is toggled off', () => {
    const item = { kind: 'connector' as const, title: 'Weather', category: 'API' };
    const filters = { ...DEFAULT_FILTERS, kinds: { ...DEFAULT_FILTERS.kinds, connector: false } };
    expect(matchesFilters(item, filters)).toBe(false);
  });

  it('keep only datasets when "Live only" is on (connectors feed listings, they are not live)', () => {
    const filters = { ...DEFAULT_FILTERS, liveOnly: true as const };
    expect(matchesFilters({ kind: 'connector', title: 'Weather', category: 'API' }, filters)).toBe(false);
    expect(matchesFilters({ kind: 'dataset', title: 'Weather', category: 'API' }, filters)).toBe(true);
  });

  it('keep only the chosen categories', () => {
    const item = { kind: 'dataset' as const, title: 'Prices', category: 'Finance' };
    expect(matchesFilters(item, { ...DEFAULT_FILTERS, categories: ['Finance', 'Science'] })).toBe(true);
    expect(matchesFilters(item, { ...DEFAULT_FILTERS, categories: ['Science'] })).toBe(false);
  });
});

describe('nextCategories', () => {
  it('drops All when a category is picked', () => {
    expect(nextCategories([], [ALL_CATEGORIES, 'Finance'])).toEqual(['Finance']);
  });

  it('clears the chosen categories when All is picked', () => {
    expect(nextCategories(['Finance'], ['Finance', ALL_CATEGORIES])).toEqual([]);
  });

  it('falls back to All when the last category is unpicked', () => {
    expect(categorySelectValue(nextCategories(['Finance'], []))).toEqual([ALL_CATEGORIES]);
  });
});

describe('categoryOptions', () => {
  it('lists known and chosen categories once, sorted, without All', () => {
    expect(categoryOptions(['Science', 'Finance', 'Science', ''], ['Health', ALL_CATEGORIES])).toEqual([
      'Finance',
      'Health',
      'Science',
    ]);
  });
});

describe('sortLabel', () => {
  it('shows the order the catalogue uses before one is chosen, never nothing', () => {
    expect(sortLabel({ search: '' })).toBe('Newest');
    expect(sortLabel({ search: 'exoplanet' })).toBe('Best match');
  });

  it('shows the chosen order by its label', () => {
    expect(sortLabel({ search: '', sort: 'price_asc' })).toBe('Price: low to high');
    expect(sortLabel({ search: 'exoplanet', sort: 'subscribers' })).toBe('Most subscribers');
  });
});
