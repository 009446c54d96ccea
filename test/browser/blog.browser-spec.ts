import type { Browser, Page } from 'playwright-core';
import {
  createVerifiedAccount,
  DEMO,
  expectEventually,
  expectSnackbar,
  expectTitle,
  freshEmail,
  horizontalOverflow,
  logInThroughForm,
  snapshot,
} from './support/accounts';
import { baseUrl, launchBrowser, openPage, ViewportName } from './support/browser';

interface PostSummary {
  title: string;
  slug: string;
  type: string;
  views: number;
  likes: number;
}

const POWER_BI_POST = 'Stream your datasets straight into Power BI';

/** The posts the API lists for this query string, in the order it lists them. */
async function listedPosts(query = ''): Promise<PostSummary[]> {
  const response = await fetch(`${baseUrl()}/api/blog${query}`);
  return (await response.json()) as PostSummary[];
}

const cards = (page: Page) => page.getByRole('main').locator('article');
const cardTitles = (page: Page) => cards(page).locator('h2').allInnerTexts();

/** Waits until the cards shown are exactly these titles (the list refetches as filters change). */
async function expectCardTitles(page: Page, titles: string[]): Promise<void> {
  await expectEventually(() => cardTitles(page), titles);
}

/** A unique slug so that runs and suites never collide. */
const uniqueSlugSuffix = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

const editorBody = (page: Page) => page.frameLocator('.tox-edit-area iframe').locator('body');

describe('the blog in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('lists posts as cards and narrows them by search and by type', async () => {
    const { context, page, errors } = await openPage(browser);
    const all = await listedPosts();
    await page.goto('/blog');
    await expectTitle(page, 'Blog · Data Marketplace');
    await expectCardTitles(
      page,
      all.map((post) => post.title),
    );

    // Each card: cover image, type, date, title and Read More to the post.
    const first = cards(page).filter({ hasText: POWER_BI_POST });
    await expect(first.getByRole('img').getAttribute('alt')).resolves.toBe(`Cover image: ${POWER_BI_POST}`);
    await expect(first.locator('.MuiChip-label').innerText()).resolves.toBe('update');
    await expect(first.locator('time').innerText()).resolves.toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}$/);
    await expect(first.getByRole('link', { name: `Read More: ${POWER_BI_POST}` }).innerText()).resolves.toBe(
      'Read More',
    );
    await expect(first.getByRole('link', { name: /^Read More/ }).getAttribute('href')).resolves.toBe(
      '/blog/stream-datasets-into-power-bi',
    );

    // The type filter offers All Types and the three types.
    const typeFilter = page.getByRole('combobox', { name: 'Type' });
    await expect(typeFilter.innerText()).resolves.toBe('All Types');
    await typeFilter.click();
    await expect(page.getByRole('option').allInnerTexts()).resolves.toEqual([
      'All Types',
      'update',
      'use_case',
      'whitepaper',
    ]);
    await page.getByRole('option', { name: 'whitepaper' }).click();
    const whitepapers = await listedPosts('?type=whitepaper');
    expect(whitepapers.length).toBeGreaterThanOrEqual(3);
    await expectCardTitles(
      page,
      whitepapers.map((post) => post.title),
    );
    await expect(cards(page).locator('.MuiChip-label').allInnerTexts()).resolves.toEqual(
      whitepapers.map(() => 'whitepaper'),
    );
    expect(new URL(page.url()).searchParams.get('type')).toBe('whitepaper');

    // Search within the type, then across all types.
    await page.getByLabel('Search posts').fill('Power BI');
    await page.getByText('No posts found.').waitFor();
    await typeFilter.click();
    await page.getByRole('option', { name: 'All Types' }).click();
    const powerBi = await listedPosts('?search=Power%20BI');
    expect(powerBi.map((post) => post.title)).toContain(POWER_BI_POST);
    await expectCardTitles(
      page,
      powerBi.map((post) => post.title),
    );
    await snapshot(page, 'blog-search', 'desktop');

    await page.getByLabel('Search posts').fill('');
    await expectCardTitles(
      page,
      all.map((post) => post.title),
    );
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows a post with type, date, views, cover, content and share links; a like adds one', async () => {
    const { context, page, errors } = await openPage(browser);
    const slug = 'retail-price-monitoring';
    const before = (await listedPosts()).find((post) => post.slug === slug)!;
    await page.goto('/blog?type=use_case');
    await cards(page)
      .filter({ hasText: 'How a retailer tracks competitor prices every morning' })
      .getByRole('link', { name: /^Read More/ })
      .click();
    await page.waitForURL(`**/blog/${slug}`);

    const article = page.getByRole('main').getByRole('article');
    await article.getByRole('heading', { level: 1 }).filter({ hasText: before.title }).waitFor();
    await expectTitle(page, `${before.title} · Data Marketplace`);
    await expect(article.locator('.MuiChip-label').first().innerText()).resolves.toBe('use_case');
    await expect(article.locator('time').innerText()).resolves.toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}$/);
    // Opening the post counted one more view.
    const views = before.views + 1;
    await article.getByText(`${views} ${views === 1 ? 'view' : 'views'}`, { exact: true }).waitFor();
    await expect(article.getByRole('img', { name: `Cover image: ${before.title}` }).count()).resolves.toBe(1);
    await expect(article.locator('.blog-content h2').count()).resolves.toBeGreaterThan(0);

    const like = article.getByRole('button', { name: /^Like this post/ });
    await expect(like.innerText()).resolves.toBe(String(before.likes));
    await like.click();
    await article
      .getByRole('button', {
        name: `Like this post (${before.likes + 1} ${before.likes + 1 === 1 ? 'like' : 'likes'})`,
      })
      .waitFor();
    await expect(like.innerText()).resolves.toBe(String(before.likes + 1));
    const after = (await listedPosts()).find((post) => post.slug === slug)!;
    expect(after.likes).toBe(before.likes + 1);
    // One like per visitor: a second click is told so and counts nothing.
    await like.click();
    await expectSnackbar(page, 'You have already liked this post');
    await expect(like.innerText()).resolves.toBe(String(before.likes + 1));

    const postUrl = `${baseUrl()}/blog/${slug}`;
    const twitter = new URL((await article.getByRole('link', { name: 'Twitter' }).getAttribute('href'))!);
    expect(twitter.origin + twitter.pathname).toBe('https://twitter.com/intent/tweet');
    expect(twitter.searchParams.get('url')).toBe(postUrl);
    const linkedIn = new URL((await article.getByRole('link', { name: 'LinkedIn' }).getAttribute('href'))!);
    expect(linkedIn.origin + linkedIn.pathname).toBe('https://www.linkedin.com/sharing/share-offsite/');
    expect(linkedIn.searchParams.get('url')).toBe(postUrl);
    await snapshot(page, 'blog-post', 'desktop');

    // An unknown slug says so.
    await page.goto('/blog/no-such-post-here');
    await page.getByText('Item not found', { exact: true }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lets an editor publish a post written in TinyMCE, served from this site only', async () => {
    const { context, page, errors } = await openPage(browser);
    const foreignRequests: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(baseUrl()) && !request.url().startsWith('data:'))
        foreignRequests.push(request.url());
    });
    await logInThroughForm(page, DEMO.email, DEMO.password);
    await page.goto('/blog/new');
    await expectTitle(page, 'New Blog Post · Data Marketplace');

    // Title and slug are required.
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Title is required').waitFor();
    await page.getByText('Slug is required').waitFor();

    const suffix = uniqueSlugSuffix();
    const title = `Quarterly Update ${suffix}`;
    await page.getByLabel(/^Title/).fill(title);
    await expect(page.getByLabel(/^Slug/).inputValue()).resolves.toBe(`quarterly-update-${suffix}`);
    // Filled in, the fields no longer say they are required.
    await page.getByText('Title is required').waitFor({ state: 'detached' });
    await expect(page.getByText('Slug is required').count()).resolves.toBe(0);
    await page.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'whitepaper' }).click();
    await page.getByLabel('Cover image URL').fill('/images/blog/pricing-data.svg');

    await editorBody(page).click();
    await page.keyboard.type('Written in the rich editor. ');
    await page.keyboard.press('Control+B');
    await page.keyboard.type('Bold words');
    await page.keyboard.press('Control+B');
    await editorBody(page).locator('strong', { hasText: 'Bold words' }).waitFor();
    await snapshot(page, 'blog-new', 'desktop');

    await page.getByRole('button', { name: 'Publish' }).click();
    await expectSnackbar(page, 'Post created!');
    await page.waitForURL(`**/blog/quarterly-update-${suffix}`);
    const article = page.getByRole('main').getByRole('article');
    await article.getByRole('heading', { level: 1, name: title }).waitFor();
    await expect(article.locator('.MuiChip-label').first().innerText()).resolves.toBe('whitepaper');
    await expect(article.locator('.blog-content strong').innerText()).resolves.toBe('Bold words');
    await expect(article.locator('.blog-content').innerText()).resolves.toContain(
      'Written in the rich editor.',
    );
    await expect(
      article.getByRole('img', { name: `Cover image: ${title}` }).getAttribute('src'),
    ).resolves.toBe('/images/blog/pricing-data.svg');

    expect(foreignRequests).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('strips scripts and event handlers from raw HTML before anyone sees them', async () => {
    const { context, page, errors } = await openPage(browser);
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await logInThroughForm(page, DEMO.email, DEMO.password);
    await page.goto('/blog/new');
    await page.getByLabel(/^Title/).waitFor();
    // An editor is told nothing about rights.
    await expect(page.getByText('Only blog editors can publish').count()).resolves.toBe(0);
    await expect(page.getByText('not a blog editor').count()).resolves.toBe(0);
    const slug = `raw-html-${uniqueSlugSuffix()}`;
    await page.getByLabel(/^Title/).fill('Raw HTML post');
    await page.getByLabel(/^Slug/).fill(slug);

    // Text typed in the rich editor carries over to the raw-HTML view.
    await editorBody(page).click();
    await page.keyboard.type('Carried over');
    await page.getByLabel('Raw HTML').check();
    const raw = page.getByRole('textbox', { name: 'Content' });
    await expect(raw.inputValue()).resolves.toContain('Carried over');

    await raw.fill(
      [
        '<p>Safe <em>text</em></p>',
        '<script>window.scriptRan = true; alert("script")</script>',
        '<img src="/images/blog/pricing-data.svg" alt="Chart" onerror="window.handlerRan = true; alert(1)">',
        '<img src="/no-such-image.png" alt="Broken" onerror="window.handlerRan = true; alert(2)">',
        '<a href="javascript:alert(3)">Bad link</a>',
      ].join('\n'),
    );
    await page.getByRole('button', { name: 'Publish' }).click();
    await expectSnackbar(page, 'Post created!');
    await page.waitForURL(`**/blog/${slug}`);

    const content = page.locator('.blog-content');
    await content.getByText('Safe').waitFor();
    await expect(content.locator('em').innerText()).resolves.toBe('text');
    await expect(content.locator('script').count()).resolves.toBe(0);
    await expect(content.locator('[onerror]').count()).resolves.toBe(0);
    await expect(content.getByRole('img', { name: 'Chart' }).count()).resolves.toBe(1);
    await expect(content.getByText('Bad link').getAttribute('href')).resolves.toBeNull();
    expect(await content.innerHTML()).not.toMatch(/script|onerror|javascript:/i);
    await page.waitForLoadState('networkidle');
    await expect(page.evaluate('[typeof window.scriptRan, typeof window.handlerRan]')).resolves.toEqual([
      'undefined',
      'undefined',
    ]);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("answers a visitor's and a non-editor's Publish with 'Error creating post.'", async () => {
    const { context, page } = await openPage(browser);
    const fill = async (slug: string) => {
      await page.goto('/blog/new');
      await page.getByLabel('Raw HTML').check();
      await page.getByLabel(/^Title/).fill('Not allowed');
      await page.getByLabel(/^Slug/).fill(slug);
      await page.getByRole('textbox', { name: 'Content' }).fill('<p>Nope</p>');
      await page.getByRole('button', { name: 'Publish' }).click();
    };

    // Before any typing, the page says who may publish and how to log in (and come back here).
    await page.goto('/blog/new');
    const notice = page
      .getByRole('main')
      .getByRole('status')
      .filter({ hasText: 'Only blog editors can publish' });
    await notice.waitFor();
    await expect(notice.getByRole('link', { name: 'Log in' }).getAttribute('href')).resolves.toBe(
      '/login?next=%2Fblog%2Fnew',
    );
    await snapshot(page, 'blog-new-visitor-notice', 'desktop');

    const visitorSlug = `visitor-${uniqueSlugSuffix()}`;
    await fill(visitorSlug);
    await expectSnackbar(page, 'Error creating post.');
    const alert = page.getByRole('main').getByRole('alert');
    await expect(alert.innerText()).resolves.toContain('Please log in to continue');
    await expect(alert.getByRole('link', { name: 'Login' }).getAttribute('href')).resolves.toBe('/login');

    const email = freshEmail('reader');
    await createVerifiedAccount('Blog Reader', email, 'reader-password-2026');
    await logInThroughForm(page, email, 'reader-password-2026');
    await page.goto('/blog/new');
    await page
      .getByRole('main')
      .getByRole('status')
      .filter({ hasText: 'Your account is not a blog editor, so Publish will be refused.' })
      .waitFor();
    const readerSlug = `reader-${uniqueSlugSuffix()}`;
    await fill(readerSlug);
    await expectSnackbar(page, 'Error creating post.');
    await expect(page.getByRole('main').getByRole('alert').innerText()).resolves.toContain(
      'Only blog editors may publish posts',
    );
    expect(new URL(page.url()).pathname).toBe('/blog/new');

    const published = (await listedPosts()).map((post) => post.slug);
    expect(published).not.toContain(visitorSlug);
    expect(published).not.toContain(readerSlug);
    await context.close();
  });

  describe.each<ViewportName>(['desktop', 'phone'])('at %s width', (viewport) => {
    it('fits the blog list, a post and the new-post form', async () => {
      const { context, page, errors } = await openPage(browser, viewport);
      const screens = [
        { path: '/blog', shot: 'blog', ready: () => cards(page).first().waitFor() },
        {
          path: '/blog/stream-datasets-into-power-bi',
          shot: 'blog-post',
          ready: () => page.getByRole('heading', { level: 1, name: POWER_BI_POST }).waitFor(),
        },
        { path: '/blog/new', shot: 'blog-new', ready: () => page.locator('.tox-edit-area iframe').waitFor() },
      ];
      for (const screen of screens) {
        await page.goto(screen.path);
        await screen.ready();
        await page.waitForLoadState('networkidle');
        await expect(page.locator('img:not([alt])').count()).resolves.toBe(0);
        await snapshot(page, screen.shot, viewport);
        if (viewport === 'phone') {
          await page.setViewportSize({ width: 360, height: 740 });
          expect({ path: screen.path, overflow: await horizontalOverflow(page) }).toEqual({
            path: screen.path,
            overflow: 0,
          });
          await page.setViewportSize({ width: 390, height: 844 });
        }
      }
      expect(errors).toEqual([]);
      await context.close();
    });
  });
});
