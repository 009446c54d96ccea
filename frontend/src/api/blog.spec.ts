import { blogKeys, blogListPath } from './blog';

describe('blogListPath', () => {
  it('asks for every post without a filter', () => {
    expect(blogListPath({})).toBe('blog');
    expect(blogListPath({ search: '  ', type: '' })).toBe('blog');
  });

  it('sends the trimmed search and the type', () => {
    expect(blogListPath({ search: ' power bi ', type: 'use_case' })).toBe(
      'blog?search=power+bi&type=use_case',
    );
  });
});

describe('blogKeys', () => {
  it('keys each filter apart and under one prefix for invalidation', () => {
    expect(blogKeys.list({ search: 'a' })).toEqual(['blog', 'list', { search: 'a', type: '' }]);
    expect(blogKeys.list({ type: 'update' }).slice(0, 2)).toEqual(blogKeys.lists());
  });
});
