import { isValidSlug } from './slug';

export interface PostFormValues {
  title: string;
  slug: string;
  type: 'update' | 'use_case' | 'whitepaper';
  cover_image: string;
  content: string;
}

export type PostFormErrors = Partial<Record<'title' | 'slug', string>>;

/** Title and slug are required; a slug must also be URL-safe. */
export function validatePostForm(values: PostFormValues): PostFormErrors {
  const errors: PostFormErrors = {};
  if (!values.title.trim()) errors.title = 'Title is required';
  const slug = values.slug.trim();
  if (!slug) errors.slug = 'Slug is required';
  else if (!isValidSlug(slug)) errors.slug = 'Use lower-case letters, digits and single dashes only';
  return errors;
}
