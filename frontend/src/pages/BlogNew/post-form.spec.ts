import { PostFormValues, validatePostForm } from './post-form';

const valid: PostFormValues = { title: 'Hello', slug: 'hello', type: 'update', cover_image: '', content: '' };

describe('validatePostForm', () => {
  it('accepts a post with title and slug only', () => {
    expect(validatePostForm(valid)).toEqual({});
  });

  it('requires a title', () => {
    expect(validatePostForm({ ...valid, title: '   ' }).title).toBe('Title is required');
  });

  it('requires a slug', () => {
    expect(validatePostForm({ ...valid, slug: '' }).slug).toBe('Slug is required');
  });

  it('rejects a slug that is not URL-safe', () => {
    expect(validatePostForm({ ...valid, slug: 'Hello World' }).slug).toMatch(/lower-case/);
  });
});
