import type { BlogPostType } from './entities/blog-post.entity';
import { excerptOf } from './blog-search';

/** A post in the list: everything a card shows, with a plain-text teaser instead of the HTML. */
export interface BlogPostSummary {
  id: string;
  title: string;
  slug: string;
  type: BlogPostType;
  cover_image: string | null;
  excerpt: string;
  author_name: string | null;
  created_at: Date;
  views: number;
  likes: number;
}

/** One post as GET blog/{slug} answers it; `content` is sanitised HTML. */
export interface BlogPostDetail extends Omit<BlogPostSummary, 'excerpt'> {
  content: string;
  updated_at: Date;
}

export interface BlogPostRow {
  id: string;
  title: string;
  slug: string;
  type: BlogPostType;
  cover_image: string | null;
  content?: string;
  plain_text?: string;
  author_name: string | null;
  created_at: Date;
  updated_at: Date;
  views: number;
  likes: number;
}

export function toSummary(row: BlogPostRow): BlogPostSummary {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    type: row.type,
    cover_image: row.cover_image,
    excerpt: excerptOf(row.plain_text ?? ''),
    author_name: row.author_name,
    created_at: row.created_at,
    views: row.views,
    likes: row.likes,
  };
}

export function toDetail(row: BlogPostRow): BlogPostDetail {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    type: row.type,
    cover_image: row.cover_image,
    content: row.content ?? '',
    author_name: row.author_name,
    created_at: row.created_at,
    updated_at: row.updated_at,
    views: row.views,
    likes: row.likes,
  };
}
