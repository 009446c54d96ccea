import { ApiProperty, OmitType } from '@nestjs/swagger';
import { BLOG_POST_TYPES } from './entities/blog-post.entity';
import type { BlogPostType } from './entities/blog-post.entity';
import { excerptOf } from './blog-search';

/** A post in the list: everything a card shows, with a plain-text teaser instead of the HTML. */
export class BlogPostSummary {
  @ApiProperty()
  id: string;

  @ApiProperty()
  title: string;

  @ApiProperty()
  slug: string;

  @ApiProperty({ enum: [...BLOG_POST_TYPES] })
  type: BlogPostType;

  @ApiProperty({ type: String, nullable: true })
  cover_image: string | null;

  @ApiProperty({ description: 'The start of the text, without HTML' })
  excerpt: string;

  @ApiProperty({ type: String, nullable: true })
  author_name: string | null;

  @ApiProperty({ type: String, format: 'date-time' })
  created_at: Date;

  @ApiProperty()
  views: number;

  @ApiProperty()
  likes: number;
}

/** One post as GET blog/{slug} answers it; `content` is sanitised HTML. */
export class BlogPostDetail extends OmitType(BlogPostSummary, ['excerpt'] as const) {
  @ApiProperty({ description: 'HTML, sanitised by the server' })
  content: string;

  @ApiProperty({ type: String, format: 'date-time' })
  updated_at: Date;
}

/** POST blog/{slug}/like: the post's new like count. */
export class LikeCount {
  @ApiProperty()
  likes: number;
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
