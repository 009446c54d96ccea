import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';

export interface TestPost {
  id: string;
  slug: string;
  title: string;
}

export interface PostOptions {
  title?: string;
  slug?: string;
  type?: 'update' | 'use_case' | 'whitepaper';
  content?: string;
  coverImage?: string | null;
  authorId?: string | null;
  createdAt?: Date;
  views?: number;
  likes?: number;
}

/** Inserts a blog post straight into the database (content is stored as given). */
export async function createPost(dataSource: DataSource, options: PostOptions = {}): Promise<TestPost> {
  const slug = options.slug ?? `post-${randomUUID()}`;
  const title = options.title ?? `Post ${slug}`;
  const [row] = await dataSource.query(
    `INSERT INTO blog_posts (title, slug, type, cover_image, content, author_id, created_at, views, likes)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
    [
      title,
      slug,
      options.type ?? 'update',
      options.coverImage ?? null,
      options.content ?? '<p>Hello</p>',
      options.authorId ?? null,
      options.createdAt ?? new Date(),
      options.views ?? 0,
      options.likes ?? 0,
    ],
  );
  return { id: row.id, slug, title };
}

/** A word no other test uses, to keep searches of one test apart from posts of others. */
export function uniqueWord(prefix = 'zq'): string {
  return `${prefix}${randomUUID()
    .replace(/[^a-f]/g, '')
    .slice(0, 10)}`;
}
