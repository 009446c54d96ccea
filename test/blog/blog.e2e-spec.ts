import { LIKE_NETWORK_LIMIT, TOO_MANY_LIKES } from '../../src/blog/blog.service';
import { VISITOR_COOKIE } from '../../src/blog/visitor-cookie';
import { createPost, uniqueWord } from '../factories/blog.factory';
import { createLoggedInUser, createUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

const DAY = 24 * 60 * 60 * 1000;

describe('blog API', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    // Likes are limited per client IP; behind a proxy that IP comes from X-Forwarded-For.
    testApp = await createTestApp({ TRUST_PROXY: 'true' });
  });
  afterAll(async () => {
    await testApp.close();
  });

  async function editorAgent() {
    return (await createLoggedInUser(testApp, { blogEditor: true, name: 'Erika Editor' })).agent;
  }

  describe('GET blog', () => {
    it('answers a plain array, newest first, with a total count header and a text excerpt', async () => {
      const word = uniqueWord();
      const now = Date.now();
      const old = await createPost(testApp.dataSource, {
        title: `Old ${word}`,
        createdAt: new Date(now - 3 * DAY),
      });
      const fresh = await createPost(testApp.dataSource, {
        title: `Fresh ${word}`,
        content: '<h2>Intro</h2><p>Tom &amp; Jerry <strong>stream</strong> data.</p>',
        coverImage: '/images/blog/cover.svg',
        createdAt: new Date(now - DAY),
      });
      const middle = await createPost(testApp.dataSource, {
        title: `Middle ${word}`,
        createdAt: new Date(now - 2 * DAY),
      });
      const response = await testApp.http.get('/api/blog').query({ search: word }).expect(200);
      expect(Array.isArray(response.body)).toBe(true);
      expect(response.body.map((post: { slug: string }) => post.slug)).toEqual([
        fresh.slug,
        middle.slug,
        old.slug,
      ]);
      expect(response.headers['x-total-count']).toBe('3');
      expect(response.body[0]).toEqual(
        expect.objectContaining({
          title: `Fresh ${word}`,
          type: 'update',
          cover_image: '/images/blog/cover.svg',
          excerpt: 'Intro Tom & Jerry stream data.',
          views: 0,
          likes: 0,
        }),
      );
      expect(response.body[0]).not.toHaveProperty('content');
    });

    it('filters by type and refuses an unknown type with 400', async () => {
      const word = uniqueWord();
      await createPost(testApp.dataSource, { title: `Update ${word}`, type: 'update' });
      const useCase = await createPost(testApp.dataSource, { title: `Case ${word}`, type: 'use_case' });
      const paper = await createPost(testApp.dataSource, { title: `Paper ${word}`, type: 'whitepaper' });
      const cases = await testApp.http.get('/api/blog').query({ search: word, type: 'use_case' }).expect(200);
      expect(cases.body.map((post: { slug: string }) => post.slug)).toEqual([useCase.slug]);
      const papers = await testApp.http
        .get('/api/blog')
        .query({ search: word, type: 'whitepaper' })
        .expect(200);
      expect(papers.body.map((post: { slug: string }) => post.slug)).toEqual([paper.slug]);
      const all = await testApp.http.get('/api/blog').query({ search: word, type: '' }).expect(200);
      expect(all.body).toHaveLength(3);
      const bad = await testApp.http.get('/api/blog').query({ type: 'news' }).expect(400);
      expect(bad.body.error).toMatch(/type must be one of update, use_case, whitepaper/);
    });

    it('searches titles and the text of the content (not the markup), word prefixes, all words required', async () => {
      const word = uniqueWord();
      const inTitle = await createPost(testApp.dataSource, { title: `Streaming to Power BI ${word}` });
      const inText = await createPost(testApp.dataSource, {
        title: 'Quarterly update',
        content: `<p>Our <em>warehouse</em> now serves ${word} connectors.</p>`,
      });
      await createPost(testApp.dataSource, {
        title: 'Unrelated',
        content: `<p class="${word}">markup only</p>`,
      });
      const slugs = async (search: string) =>
        (await testApp.http.get('/api/blog').query({ search }).expect(200)).body.map(
          (post: { slug: string }) => post.slug,
        );

      expect(await slugs(word)).toEqual(expect.arrayContaining([inTitle.slug, inText.slug]));
      expect(await slugs(word)).toHaveLength(2);
      expect(await slugs(`${word} warehouse`)).toEqual([inText.slug]);
      expect(await slugs(`${word} WAREH`)).toEqual([inText.slug]);
      expect(await slugs(`${word} strea`)).toEqual([inTitle.slug]);
      expect(await slugs(`${word} absent`)).toEqual([]);
    });

    it('finds a part of a word inside a title', async () => {
      const word = uniqueWord();
      const post = await createPost(testApp.dataSource, { title: `Marketplace${word}insights` });
      const response = await testApp.http
        .get('/api/blog')
        .query({ search: word.slice(2) })
        .expect(200);
      expect(response.body.map((item: { slug: string }) => item.slug)).toEqual([post.slug]);
    });

    it('treats query syntax and LIKE wildcards in a search as plain text', async () => {
      for (const search of [
        "a & !b | c:* <-> 'd' (e)",
        '%',
        '_',
        '\\',
        "'; DROP TABLE blog_posts; --",
        '!!!',
      ]) {
        const response = await testApp.http.get('/api/blog').query({ search }).expect(200);
        expect(Array.isArray(response.body)).toBe(true);
      }
      const percent = await testApp.http.get('/api/blog').query({ search: '%' }).expect(200);
      expect(percent.body.every((post: { title: string }) => post.title.includes('%'))).toBe(true);
    });

    it('pages with limit and offset while X-Total-Count gives the whole count', async () => {
      const word = uniqueWord();
      const now = Date.now();
      for (let index = 0; index < 5; index++) {
        await createPost(testApp.dataSource, {
          title: `Paged ${index} ${word}`,
          createdAt: new Date(now - index * DAY),
        });
      }
      const page = await testApp.http
        .get('/api/blog')
        .query({ search: word, limit: 2, offset: 2 })
        .expect(200);
      expect(page.body.map((post: { title: string }) => post.title)).toEqual([
        `Paged 2 ${word}`,
        `Paged 3 ${word}`,
      ]);
      expect(page.headers['x-total-count']).toBe('5');
      await testApp.http.get('/api/blog').query({ limit: 0 }).expect(400);
      await testApp.http.get('/api/blog').query({ limit: 1000 }).expect(400);
    });
  });

  describe('GET blog/{slug}', () => {
    it('answers the post with its HTML and counts one view per call, atomically under 20 parallel calls', async () => {
      const author = await createUser(testApp.dataSource, { name: 'Ada Author' });
      const post = await createPost(testApp.dataSource, { content: '<p>Body</p>', authorId: author.id });
      const first = await testApp.http.get(`/api/blog/${post.slug}`).expect(200);
      expect(first.body).toEqual(
        expect.objectContaining({
          slug: post.slug,
          content: '<p>Body</p>',
          views: 1,
          likes: 0,
          author_name: 'Ada Author',
        }),
      );
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => testApp.http.get(`/api/blog/${post.slug}`).expect(200)),
      );
      expect(responses.map((response) => response.body.views).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 20 }, (_value, index) => index + 2),
      );
      const [row] = await testApp.dataSource.query('SELECT views FROM blog_posts WHERE id = $1', [post.id]);
      expect(row.views).toBe(21);
    });

    it('answers 404 for an unknown slug', async () => {
      const response = await testApp.http.get('/api/blog/no-such-post').expect(404);
      expect(response.body.error).toBe('Post not found');
      await testApp.http.get('/api/blog/Not%20A%20Slug').expect(404);
    });
  });

  describe('POST blog/{slug}/like', () => {
    it('needs no login and counts 20 parallel likes exactly, answering the new count', async () => {
      const post = await createPost(testApp.dataSource, { likes: 3 });
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_value, index) =>
          testApp.http
            .post(`/api/blog/${post.slug}/like`)
            .set('X-Forwarded-For', `10.1.0.${index + 1}`)
            .expect(200),
        ),
      );
      expect(responses.map((response) => response.body.likes).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 20 }, (_value, index) => index + 4),
      );
      const [row] = await testApp.dataSource.query('SELECT likes FROM blog_posts WHERE id = $1', [post.id]);
      expect(row.likes).toBe(23);
    });

    const like = (slug: string, ip: string, cookie?: string) => {
      const request = testApp.http
        .post(`/api/blog/${slug}/like`)
        .set('Origin', TEST_ORIGIN)
        .set('X-Forwarded-For', ip);
      return cookie ? request.set('Cookie', cookie) : request;
    };
    const visitorCookieOf = (response: { headers: Record<string, unknown> }) =>
      ((response.headers['set-cookie'] as string[] | undefined) ?? []).find((cookie) =>
        cookie.startsWith(`${VISITOR_COOKIE}=`),
      );

    it('counts one like per visitor (their signed, httpOnly visitor cookie) and post a day, 429 after', async () => {
      const post = await createPost(testApp.dataSource);
      const other = await createPost(testApp.dataSource);
      const first = await like(post.slug, '10.2.0.1').expect(200);
      expect(first.body).toEqual({ likes: 1 });
      const setCookie = visitorCookieOf(first) ?? '';
      expect(setCookie).toMatch(/HttpOnly/);
      expect(setCookie).toMatch(/SameSite=Lax/);
      const cookie = setCookie.split(';')[0];
      const refused = await like(post.slug, '10.2.0.9', cookie).expect(429);
      expect(refused.body.error).toBe('You have already liked this post');
      // The day's window: about 86,400 seconds until this visitor may like the post again.
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(86_000);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(86_400);
      // A known visitor gets no new cookie; another post is another like.
      const onOther = await like(other.slug, '10.2.0.1', cookie).expect(200);
      expect(visitorCookieOf(onOther)).toBeUndefined();
      // A made-up or altered cookie is no visitor of ours: it is answered as a new visitor.
      const forged = `${cookie.slice(0, -3)}abc`;
      expect(visitorCookieOf(await like(other.slug, '10.2.0.1', forged).expect(200))).toBeDefined();
      const [row] = await testApp.dataSource.query('SELECT likes FROM blog_posts WHERE id = $1', [post.id]);
      expect(row.likes).toBe(1);
    });

    it('lets several people behind one address like a post, up to the network limit of the day', async () => {
      const post = await createPost(testApp.dataSource);
      for (let person = 0; person < LIKE_NETWORK_LIMIT.limit; person++)
        await like(post.slug, '10.4.0.1').expect(200);
      const refused = await like(post.slug, '10.4.0.1').expect(429);
      expect(refused.body.error).toBe(TOO_MANY_LIKES);
      await like(post.slug, '10.4.0.2').expect(200);
      const [row] = await testApp.dataSource.query('SELECT likes FROM blog_posts WHERE id = $1', [post.id]);
      expect(row.likes).toBe(LIKE_NETWORK_LIMIT.limit + 1);
    });

    it('answers 404 for an unknown post', async () => {
      await testApp.http.post('/api/blog/no-such-post/like').set('X-Forwarded-For', '10.3.0.1').expect(404);
    });
  });

  describe('POST blog', () => {
    const validPost = () => ({
      title: 'Streaming to Excel',
      slug: `streaming-to-excel-${uniqueWord()}`,
      type: 'use_case',
      cover_image: 'https://images.example.com/excel.png',
      content: '<h2>Steps</h2><p>Open <a href="https://example.com">Excel</a>.</p>',
    });

    it('refuses visitors with 401', async () => {
      const response = await testApp.http
        .post('/api/blog')
        .set('Origin', TEST_ORIGIN)
        .send(validPost())
        .expect(401);
      expect(response.body.error).toBe('Please log in to continue');
    });

    it('refuses logged-in users who are not blog editors with 403', async () => {
      const { agent } = await createLoggedInUser(testApp);
      const response = await agent.post('/api/blog').set('Origin', TEST_ORIGIN).send(validPost()).expect(403);
      expect(response.body.error).toBe('Only blog editors may publish posts');
    });

    it('publishes for a blog editor, authored by them, and the post can then be read', async () => {
      const agent = await editorAgent();
      const input = validPost();
      const created = await agent.post('/api/blog').set('Origin', TEST_ORIGIN).send(input).expect(201);
      expect(created.body).toEqual(
        expect.objectContaining({
          title: input.title,
          slug: input.slug,
          type: 'use_case',
          cover_image: input.cover_image,
          content:
            '<h2>Steps</h2><p>Open <a href="https://example.com" rel="noopener noreferrer">Excel</a>.</p>',
          author_name: 'Erika Editor',
          views: 0,
          likes: 0,
        }),
      );
      const read = await testApp.http.get(`/api/blog/${input.slug}`).expect(200);
      expect(read.body.title).toBe(input.title);
    });

    it('answers 409 when the slug is taken', async () => {
      const agent = await editorAgent();
      const input = validPost();
      await agent.post('/api/blog').set('Origin', TEST_ORIGIN).send(input).expect(201);
      const again = await agent
        .post('/api/blog')
        .set('Origin', TEST_ORIGIN)
        .send({ ...input, title: 'Other' })
        .expect(409);
      expect(again.body.error).toBe('This slug is already taken');
    });

    it('requires title and slug, and a slug of lower-case letters, digits and hyphens only', async () => {
      const agent = await editorAgent();
      const post = (body: object) => agent.post('/api/blog').set('Origin', TEST_ORIGIN).send(body);
      const { title: _title, ...withoutTitle } = validPost();
      expect((await post(withoutTitle).expect(400)).body.error).toBe('Title is required');
      expect((await post({ ...validPost(), title: '   ' }).expect(400)).body.error).toBe('Title is required');
      expect((await post({ ...validPost(), slug: '' }).expect(400)).body.error).toBe('Slug is required');
      for (const slug of [
        'Upper-Case',
        'with space',
        'under_score',
        '-leading',
        'trailing-',
        'double--hyphen',
        'ümlaut',
        'a/b',
      ]) {
        const response = await post({ ...validPost(), slug }).expect(400);
        expect(response.body.error).toBe('Slug may contain only lower-case letters, digits and hyphens');
      }
      await post({ ...validPost(), slug: `ok-2026-${uniqueWord()}` }).expect(201);
    });

    it('refuses the slug "new": /blog/new is the editor, so that post could never be opened', async () => {
      const agent = await editorAgent();
      const response = await agent
        .post('/api/blog')
        .set('Origin', TEST_ORIGIN)
        .send({ ...validPost(), slug: 'new' })
        .expect(400);
      expect(response.body.error).toBe('The slug "new" is reserved; please choose another');
      await testApp.http.get('/api/blog/new').expect(404);
    });

    it('accepts only the three types, defaulting to update', async () => {
      const agent = await editorAgent();
      await agent
        .post('/api/blog')
        .set('Origin', TEST_ORIGIN)
        .send({ ...validPost(), type: 'news' })
        .expect(400);
      const { type: _type, ...withoutType } = validPost();
      const created = await agent.post('/api/blog').set('Origin', TEST_ORIGIN).send(withoutType).expect(201);
      expect(created.body.type).toBe('update');
    });

    it('accepts a cover image that is an http(s) URL or a path on this site, nothing else', async () => {
      const agent = await editorAgent();
      const post = (cover_image: unknown) =>
        agent
          .post('/api/blog')
          .set('Origin', TEST_ORIGIN)
          .send({ ...validPost(), cover_image });
      for (const good of [
        'https://cdn.example.com/a.png',
        'http://example.com/b.jpg',
        '/images/blog/c.svg',
      ]) {
        expect((await post(good).expect(201)).body.cover_image).toBe(good);
      }
      expect((await post('').expect(201)).body.cover_image).toBeNull();
      for (const bad of [
        '//evil.test/x.png',
        'javascript:alert(1)',
        'data:image/png;base64,AAAA',
        'ftp://x.test/a',
        'images/x.png',
        '/\\evil.test',
        'https://exa mple.com',
      ]) {
        const response = await post(bad).expect(400);
        expect(response.body.error).toBe(
          'Cover image must be an http(s) URL or a path on this site starting with /',
        );
      }
    });

    it('stores harmless HTML whatever the client sends (XSS corpus)', async () => {
      const agent = await editorAgent();
      const corpus = [
        '<script>alert(1)</script>',
        '<img src=x onerror=alert(1)>',
        '<p onclick="alert(1)">p</p>',
        '<a href="javascript:alert(1)">js</a>',
        '<a href="jav&#x09;ascript:alert(1)">js</a>',
        '<svg onload=alert(1)><script>alert(2)</script></svg>',
        '<style>p{color:red}</style><p style="background:url(javascript:alert(1))">s</p>',
        '<a href="data:text/html;base64,PHNjcmlwdD4=">data</a>',
        '<iframe src="https://evil.test"></iframe>',
      ].join('\n');
      const input = { ...validPost(), content: corpus };
      const created = await agent.post('/api/blog').set('Origin', TEST_ORIGIN).send(input).expect(201);
      const read = await testApp.http.get(`/api/blog/${input.slug}`).expect(200);
      for (const html of [created.body.content, read.body.content]) {
        expect(html).not.toMatch(/<script|<svg|<iframe|<style|\son\w+=|javascript:|data:|style=/i);
      }
      expect(read.body.content).toContain('<a rel="noopener noreferrer">js</a>');
    });

    it('refuses a cross-site form post (CSRF) with 403', async () => {
      const agent = await editorAgent();
      await agent.post('/api/blog').set('Origin', 'https://evil.test').send(validPost()).expect(403);
    });
  });
});
