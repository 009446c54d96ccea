import { BLOG_TYPE_FILTERS, formatPostDate, shareLinks, viewsText } from './blog-format';

describe('blog type filter', () => {
  it('offers All Types, update, use_case and whitepaper', () => {
    expect(BLOG_TYPE_FILTERS.map((option) => option.label)).toEqual([
      'All Types',
      'update',
      'use_case',
      'whitepaper',
    ]);
    expect(BLOG_TYPE_FILTERS[0].value).toBe('');
  });
});

describe('formatPostDate', () => {
  it('shows day, short month and year', () => {
    expect(formatPostDate('2025-03-03T10:00:00Z')).toBe('3 Mar 2025');
  });

  it('gives an empty text for a missing or unreadable date', () => {
    expect(formatPostDate(undefined)).toBe('');
    expect(formatPostDate('not a date')).toBe('');
  });
});

describe('shareLinks', () => {
  it('builds Twitter and LinkedIn share addresses with the encoded post URL', () => {
    const links = shareLinks('https://example.com/blog/a b', 'Hello & welcome');
    expect(links.twitter).toBe(
      'https://twitter.com/intent/tweet?url=https%3A%2F%2Fexample.com%2Fblog%2Fa+b&text=Hello+%26+welcome',
    );
    expect(links.linkedin).toBe(
      'https://www.linkedin.com/sharing/share-offsite/?url=https%3A%2F%2Fexample.com%2Fblog%2Fa+b',
    );
  });
});

describe('viewsText', () => {
  it('counts views in singular and plural', () => {
    expect(viewsText(1)).toBe('1 view');
    expect(viewsText(0)).toBe('0 views');
    expect(viewsText(12)).toBe('12 views');
  });
});
