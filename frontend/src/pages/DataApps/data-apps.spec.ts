import { APP_CATEGORIES, DATA_APPS, filterApps } from './data-apps';

describe('data apps demo list', () => {
  it('holds four apps priced €29, €19, Free and €39', () => {
    expect(DATA_APPS.map((app) => app.price)).toEqual(['€29', '€19', 'Free', '€39']);
  });

  it('offers the categories All, Finance, Marketing, Science and Technology', () => {
    expect(APP_CATEGORIES).toEqual(['All', 'Finance', 'Marketing', 'Science', 'Technology']);
  });

  it('shows every app for category All and an empty search', () => {
    expect(filterApps(DATA_APPS, '', 'All')).toHaveLength(4);
  });

  it('keeps only the apps of the chosen category', () => {
    const finance = filterApps(DATA_APPS, '', 'Finance');
    expect(finance).toHaveLength(1);
    expect(finance[0].category).toBe('Finance');
  });

  it('matches the search text in title or description, ignoring case and surrounding spaces', () => {
    expect(filterApps(DATA_APPS, '  CLIMATE ', 'All').map((app) => app.id)).toEqual(['climate-explorer']);
    expect(filterApps(DATA_APPS, 'ad spend', 'All').map((app) => app.id)).toEqual(['campaign-analyzer']);
  });

  it('combines search and category', () => {
    expect(filterApps(DATA_APPS, 'climate', 'Finance')).toEqual([]);
  });
});
