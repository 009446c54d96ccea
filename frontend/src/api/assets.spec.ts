import { assetListQuery } from './assets';

describe('assetListQuery', () => {
  it('sends search, every chosen category and the page window', () => {
    expect(
      assetListQuery({ search: ' rain ', categories: ['Science', 'Finance'], limit: 24, offset: 48 }),
    ).toBe('search=rain&category=Science&category=Finance&limit=24&offset=48');
  });

  it('leaves out an empty search and asks for at least one row (for the total)', () => {
    expect(assetListQuery({ search: '', categories: [], limit: 0, offset: 0 })).toBe('limit=1&offset=0');
  });
});
