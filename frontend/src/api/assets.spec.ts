import { assetKeys, assetListQuery } from './assets';

describe('assetListQuery', () => {
  it('sends search, every chosen category and the page window', () => {
    expect(
      assetListQuery({ search: ' rain ', categories: ['Science', 'Finance'], limit: 24, offset: 48 }),
    ).toBe('search=rain&category=Science&category=Finance&limit=24&offset=48');
  });

  it('asks for live datasets only, most recently updated first', () => {
    expect(
      assetListQuery({ search: '', categories: [], sort: 'updated', live: true, limit: 24, offset: 0 }),
    ).toBe('sort=updated&live=true&limit=24&offset=0');
  });

  it('leaves out an empty search and asks for at least one row (for the total)', () => {
    expect(assetListQuery({ search: '', categories: [], limit: 0, offset: 0 })).toBe('limit=1&offset=0');
  });
});

describe('assetKeys', () => {
  const params = { search: 'rain', categories: [], limit: 24, offset: 0 };

  it('puts catalogue pages and the Manage lists under one prefix, which access changes and uploads refresh', () => {
    expect(assetKeys.page(params).slice(0, 2)).toEqual(assetKeys.lists());
    expect(assetKeys.scope('accessible').slice(0, 2)).toEqual(assetKeys.lists());
    expect(assetKeys.scope('owned').slice(0, 2)).toEqual(assetKeys.lists());
  });

  it("keeps one dataset's detail and rows apart from the lists and from other datasets", () => {
    expect(assetKeys.dataPage('a1', { limit: 25, offset: 0 }).slice(0, 3)).toEqual(assetKeys.data('a1'));
    expect(assetKeys.data('a1')).not.toEqual(assetKeys.data('a2'));
    expect(assetKeys.detail('a1').slice(0, 2)).not.toEqual(assetKeys.lists());
  });
});
