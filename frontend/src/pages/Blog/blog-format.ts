import { BLOG_POST_TYPES } from '../../api/blog';

/** The type filter's options: '' stands for All Types. */
export const BLOG_TYPE_FILTERS = [
  { value: '', label: 'All Types' },
  ...BLOG_POST_TYPES.map((type) => ({ value: type, label: type })),
];

/** "3 Mar 2025"; an unreadable date gives an empty text rather than "Invalid Date". */
export function formatPostDate(value: string | Date | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** Share links for a post's public address. */
export function shareLinks(url: string, title: string): { twitter: string; linkedin: string } {
  return {
    twitter: `https://twitter.com/intent/tweet?${new URLSearchParams({ url, text: title }).toString()}`,
    linkedin: `https://www.linkedin.com/sharing/share-offsite/?${new URLSearchParams({ url }).toString()}`,
  };
}

/** "1 view", "12 views". */
export function viewsText(views: number): string {
  return `${views} ${views === 1 ? 'view' : 'views'}`;
}
