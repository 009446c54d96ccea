import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { sanitizeBlogHtml } from '../../blog/blog-html.sanitizer';
import { SEED_POSTS } from '../../blog/seed/blog-seed-posts';
import type { SeedContext } from './seed-context';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The demo blog, authored by the demo user; a post whose slug exists is left as it is. */
@Injectable()
export class BlogSeeder {
  constructor(private readonly dataSource: DataSource) {}

  /** Answers how many posts this run added. */
  async run(context: SeedContext): Promise<number> {
    let created = 0;
    for (const post of SEED_POSTS) {
      const rows: unknown[] = await this.dataSource.query(
        `INSERT INTO blog_posts (title, slug, type, cover_image, content, author_id, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
         ON CONFLICT (slug) DO NOTHING
         RETURNING id`,
        [
          post.title,
          post.slug,
          post.type,
          post.coverImage,
          sanitizeBlogHtml(post.content.trim()),
          context.demoUserId,
          new Date(Date.now() - post.daysAgo * DAY_MS),
        ],
      );
      created += rows.length;
    }
    return created;
  }
}
