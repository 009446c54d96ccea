import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sanitizeBlogHtml } from '../../src/blog/blog-html.sanitizer';
import { SEED_POSTS } from '../../src/blog/seed/blog-seed-posts';
import { BlogSeeder } from '../../src/database/seed/blog.seeder';
import { createUser } from '../factories/user.factory';
import { createTestApp, TestApp } from '../support/test-app';

const PUBLIC_DIR = join(__dirname, '..', '..', 'frontend', 'public');

describe('BlogSeeder', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('seeds several posts of each type, authored by the demo user, once however often it runs', async () => {
    const demo = await createUser(testApp.dataSource, { name: 'Demo User', blogEditor: true });
    const seeder = testApp.app.get(BlogSeeder);
    await seeder.run({ demoUserId: demo.id });
    await seeder.run({ demoUserId: demo.id });

    const rows: Array<{
      slug: string;
      type: string;
      author_id: string;
      content: string;
      cover_image: string;
    }> = await testApp.dataSource.query(
      `SELECT slug, type, author_id, content, cover_image FROM blog_posts WHERE slug = ANY($1::text[])`,
      [SEED_POSTS.map((post) => post.slug)],
    );
    expect(rows).toHaveLength(SEED_POSTS.length);
    for (const type of ['update', 'use_case', 'whitepaper']) {
      expect(rows.filter((row) => row.type === type).length).toBeGreaterThanOrEqual(3);
    }
    for (const row of rows) {
      expect(row.author_id).toBe(demo.id);
      expect(sanitizeBlogHtml(row.content)).toBe(row.content);
      expect(row.content).toMatch(/<h2>|<p>/);
    }
  });

  it('uses cover images the app serves itself', () => {
    for (const post of SEED_POSTS) {
      expect(post.coverImage).toMatch(/^\/images\/blog\/[a-z0-9-]+\.svg$/);
      expect(existsSync(join(PUBLIC_DIR, post.coverImage))).toBe(true);
    }
  });

  it('lists the seeded posts newest first through the API', async () => {
    const all: Array<{ slug: string }> = [];
    for (let offset = 0; ; offset += 100) {
      const page = await testApp.http.get('/api/blog').query({ limit: 100, offset }).expect(200);
      all.push(...page.body);
      if (page.body.length < 100) break;
    }
    const seededSlugs = new Set(SEED_POSTS.map((post) => post.slug));
    const listed = all.filter((post) => seededSlugs.has(post.slug));
    const expected = [...SEED_POSTS].sort((a, b) => a.daysAgo - b.daysAgo).map((post) => post.slug);
    expect(listed.map((post) => post.slug)).toEqual(expected);
  });
});
