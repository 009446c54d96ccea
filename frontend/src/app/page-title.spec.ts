import { pageTitle } from './page-title';

describe('pageTitle', () => {
  it('puts the screen before the brand', () => {
    expect(pageTitle('Blog')).toBe('Blog · Data Marketplace');
  });

  it('gives the landing page the brand with its tagline', () => {
    expect(pageTitle()).toBe('Data Marketplace · Datasets and API connectors');
  });
});
