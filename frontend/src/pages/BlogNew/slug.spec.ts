import { isValidSlug, suggestSlug } from './slug';

describe('suggestSlug', () => {
  it('lowercases the title and joins words with dashes', () => {
    expect(suggestSlug('Quarterly Product Update')).toBe('quarterly-product-update');
  });

  it('drops punctuation and collapses repeated separators', () => {
    expect(suggestSlug('  Hello,   World!! -- 2025  ')).toBe('hello-world-2025');
  });

  it('spells out German umlauts and removes other accents', () => {
    expect(suggestSlug('Größe & Café')).toBe('groesse-and-cafe');
  });

  it('gives an empty slug for a title without letters or digits', () => {
    expect(suggestSlug('!!!')).toBe('');
  });

  it('keeps slugs at most 80 characters without a trailing dash', () => {
    const slug = suggestSlug(`${'a'.repeat(79)} b`);
    expect(slug.length).toBeLessThanOrEqual(80);
    expect(slug.endsWith('-')).toBe(false);
  });

  it('always produces a slug that isValidSlug accepts', () => {
    for (const title of ['Use case: Power BI', 'Whitepaper — Data Mesh', 'v2.0 released']) {
      expect(isValidSlug(suggestSlug(title))).toBe(true);
    }
  });
});

describe('isValidSlug', () => {
  it('rejects spaces, capitals and leading or doubled dashes', () => {
    expect(isValidSlug('Hello world')).toBe(false);
    expect(isValidSlug('-hello')).toBe(false);
    expect(isValidSlug('hello--world')).toBe(false);
    expect(isValidSlug('hello-world')).toBe(true);
  });
});
