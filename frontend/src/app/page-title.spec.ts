import { pageTitle } from './page-title';

describe('pageTitle', () => {
  it('puts the screen before the brand', () => {
    expect(pageTitle('Blog')).toBe('Blog · DataMarket');
  });

  it('gives the landing page the brand with its tagline', () => {
    expect(pageTitle()).toBe('DataMarket · Data marketplace and data platform');
  });
});
