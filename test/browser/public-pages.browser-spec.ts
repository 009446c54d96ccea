import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { validateConnectorSpec } from '../../src/connectors/dsl/connector-spec.validator';
import { expectTitle, horizontalOverflow, snapshot } from './support/accounts';
import { launchBrowser, openPage, ViewportName } from './support/browser';

/** The landing page's JavaScript budget (compressed), spec'd for a fast first visit. */
const LANDING_JS_BUDGET_BYTES = 250 * 1024;

const LANDING = {
  path: '/',
  heading: 'Honest feedback. Real purchases. Clear evidence.',
  title: 'Data Marketplace · Datasets and API connectors',
};

/**
 * Every public screen: where it lives, its main heading and its browser-tab title; `toggle` names a
 * button pressed first (the landing page's company view).
 */
const PUBLIC_SCREENS: Array<{ path: string; heading: string; title: string; shot: string; toggle?: string }> =
  [
    { ...LANDING, shot: 'landing-buyers' },
    { ...LANDING, shot: 'landing-companies', toggle: 'Companies' },
    { path: '/about', heading: 'About us', title: 'About · Data Marketplace', shot: 'about' },
    { path: '/terms', heading: 'Terms and Conditions', title: 'Terms · Data Marketplace', shot: 'terms' },
    { path: '/imprint', heading: 'Imprint', title: 'Imprint · Data Marketplace', shot: 'imprint' },
    { path: '/contact', heading: 'Contact us', title: 'Contact · Data Marketplace', shot: 'contact' },
    { path: '/dataapps', heading: 'Data Apps', title: 'Data Apps · Data Marketplace', shot: 'dataapps' },
    { path: '/use-cases', heading: 'Use Cases', title: 'Use Cases · Data Marketplace', shot: 'use-cases' },
    {
      path: '/documentation',
      heading: 'Connector documentation',
      title: 'Documentation · Data Marketplace',
      shot: 'documentation',
    },
    {
      path: '/no-such-page',
      heading: 'Page not found',
      title: 'Page not found · Data Marketplace',
      shot: 'not-found',
    },
  ];

/** Footer link text -> where it leads and the heading found there (the footer's links, docs/product.md). */
const FOOTER_TARGETS = [
  { link: 'About', path: '/about', heading: 'About us' },
  { link: 'DataStore', path: '/datastore', heading: 'DataStore' },
  { link: 'Data Apps', path: '/dataapps', heading: 'Data Apps' },
  { link: 'Use Cases', path: '/use-cases', heading: 'Use Cases' },
  { link: 'Documentation', path: '/documentation', heading: 'Connector documentation' },
  { link: 'Blog', path: '/blog', heading: 'Blog' },
  { link: 'Contact', path: '/contact', heading: 'Contact us' },
  { link: 'Terms', path: '/terms', heading: 'Terms and Conditions' },
  { link: 'Imprint', path: '/imprint', heading: 'Imprint' },
];

/** The text of the element that has the keyboard focus. */
const focusedText = (page: Page) => page.locator(':focus').innerText();

const heading1 = (page: Page) => page.getByRole('main').getByRole('heading', { level: 1 });

const pressed = (page: Page, name: string) =>
  page.getByRole('button', { name, exact: true }).getAttribute('aria-pressed');

/** Titles of the data-app cards shown. */
const appTitles = (page: Page) => page.getByRole('main').locator('article h2').allInnerTexts();

describe('public pages in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('shows the buyer view first and the company pricing after the toggle, with calls to action to /register', async () => {
    const { context, page, errors } = await openPage(browser);
    await page.goto('/');
    const main = page.getByRole('main');
    await main.getByRole('heading', { name: 'Free products for your honest feedback' }).waitFor();
    await expect(pressed(page, 'Test buyers')).resolves.toBe('true');
    await expect(pressed(page, 'Companies')).resolves.toBe('false');
    await main.getByRole('heading', { name: 'Trust score' }).waitFor();
    await expect(main.getByText('Pricing', { exact: true }).count()).resolves.toBe(0);

    await main.getByRole('button', { name: 'Companies' }).click();
    await main.getByRole('heading', { name: 'Trace grey-market sellers with test purchases' }).waitFor();
    await expect(pressed(page, 'Companies')).resolves.toBe('true');
    await expect(
      main.getByRole('heading', { name: 'Free products for your honest feedback' }).count(),
    ).resolves.toBe(0);

    const plans = main.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3 }) });
    await expect(plans.allInnerTexts()).resolves.toHaveLength(4);
    const plan = async (name: string) =>
      (await main.getByLabel(name, { exact: true }).innerText()).replace(/\s+/g, ' ').trim();
    await expect(plan('On demand')).resolves.toBe(
      'On demand €30 fee per test purchase, plus product plus shipping',
    );
    await expect(plan('50-pack')).resolves.toBe(
      '50-pack Save 17% €25 each, plus product plus shipping 50 test purchases',
    );
    await expect(plan('100-pack')).resolves.toBe(
      '100-pack Save 27% €22 each, plus product plus shipping 100 test purchases',
    );
    await expect(plan('Corporate plan')).resolves.toBe(
      'Corporate plan By invoice Custom volume, paid by invoice',
    );
    await main.getByText('Save up to 80% fees compared with traditional test-purchase agencies.').waitFor();

    // Card payment or invoice.
    const payment = main.getByRole('group', { name: 'How would you like to pay?' });
    await expect(
      payment.getByRole('button', { name: 'Card payment' }).getAttribute('aria-pressed'),
    ).resolves.toBe('true');
    await payment.getByRole('button', { name: 'Invoice' }).click();
    await main.getByText('the corporate plan is always billed by invoice', { exact: false }).waitFor();

    // Every call to action on the page leads to /register.
    const actions = main.getByRole('link', { name: /sign up|get started|become a test buyer/i });
    for (const href of await actions.evaluateAll((links) => links.map((link) => link.getAttribute('href'))))
      expect(href).toBe('/register');
    await main.getByRole('link', { name: 'Get started' }).click();
    await page.waitForURL('**/register');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('operates the landing toggle from the keyboard, starting at the skip link', async () => {
    const { context, page } = await openPage(browser);
    await page.goto('/');
    await page.getByRole('button', { name: 'Companies' }).waitFor();
    await page.keyboard.press('Tab');
    await expect(focusedText(page)).resolves.toBe('Skip to main content');
    let reached = false;
    for (let step = 0; step < 15 && !reached; step += 1) {
      await page.keyboard.press('Tab');
      reached = (await focusedText(page)) === 'Test buyers';
    }
    expect(reached).toBe(true);
    // The toggle group is one tab stop; the arrow keys move between its buttons.
    await page.keyboard.press('ArrowRight');
    await expect(focusedText(page)).resolves.toBe('Companies');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Trace grey-market sellers with test purchases' }).waitFor();
    await context.close();
  });

  it('loads less than 250 KB of compressed JavaScript for the landing page, without editor, grid or form', async () => {
    const { context, page } = await openPage(browser);
    const scripts = new Map<string, Buffer>();
    page.on('response', async (response) => {
      if (response.request().resourceType() === 'script') scripts.set(response.url(), await response.body());
    });
    await page.goto('/');
    await page.getByRole('heading', { name: 'Free products for your honest feedback' }).waitFor();
    await page.waitForLoadState('networkidle');
    const names = [...scripts.keys()].map((url) => new URL(url).pathname);
    expect(names.length).toBeGreaterThan(0);
    for (const heavy of ['RichEditor', 'DataTable', 'SchemaForm'])
      expect(names.filter((name) => name.includes(heavy))).toEqual([]);
    const compressed = [...scripts.values()].reduce((total, body) => total + gzipSync(body).length, 0);
    expect(compressed).toBeLessThan(LANDING_JS_BUDGET_BYTES);
    await context.close();
  });

  it('reaches every page of the footer by its link', async () => {
    const { context, page, errors } = await openPage(browser);
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    for (const target of FOOTER_TARGETS) {
      await footer.getByRole('link', { name: target.link, exact: true }).click();
      await page.waitForURL((url) => url.pathname === target.path);
      await heading1(page).filter({ hasText: target.heading }).waitFor();
      await expect(heading1(page).innerText()).resolves.toBe(target.heading);
    }
    // The API documentation is served by the API itself (Swagger UI), outside the single-page app.
    await footer.getByRole('link', { name: 'API Documentation', exact: true }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/api-documentation'));
    await page.getByText('Data Marketplace API').first().waitFor();
    // It is no dead end: a link leads back into the app (Swagger UI opens description links in a new tab).
    const [app] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('link', { name: '← Back to Data Marketplace' }).click(),
    ]);
    await app.waitForURL((url) => url.pathname === '/');
    await heading1(app).first().waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  describe.each<ViewportName>(['desktop', 'phone'])('at %s width', (viewport) => {
    it('shows each public screen with its heading, title, header, footer and described images', async () => {
      const { context, page, errors } = await openPage(browser, viewport);
      for (const screen of PUBLIC_SCREENS) {
        await page.goto(screen.path);
        await heading1(page).filter({ hasText: screen.heading }).waitFor();
        if (screen.toggle) await page.getByRole('button', { name: screen.toggle, exact: true }).click();
        await expectTitle(page, screen.title);
        await page.getByRole('banner').getByRole('link', { name: 'Data Marketplace home' }).waitFor();
        await page.getByRole('contentinfo').waitFor();
        await page.waitForLoadState('networkidle');
        await expect(page.locator('img:not([alt])').count()).resolves.toBe(0);
        await snapshot(page, screen.shot, viewport);
        if (viewport === 'phone') {
          // The narrowest phones the layout supports.
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

  it('shows the about page with mission, vision and differentiators, and the terms page with its title only', async () => {
    const { context, page } = await openPage(browser);
    await page.goto('/about');
    const main = page.getByRole('main');
    await main.getByRole('heading', { name: 'Our mission', level: 2 }).waitFor();
    await main.getByRole('heading', { name: 'Our vision', level: 2 }).waitFor();
    await main.getByRole('heading', { name: 'What makes us different', level: 2 }).waitFor();
    await expect(main.getByRole('heading', { level: 3 }).count()).resolves.toBe(4);

    await page.goto('/terms');
    await heading1(page).filter({ hasText: 'Terms and Conditions' }).waitFor();
    // Real terms, which sign-up asks to accept: the shipped text unless TERMS_FILE replaces it.
    await main.getByRole('heading', { name: '1. Your account', level: 2 }).waitFor();
    await main.getByRole('heading', { name: '2. Buying and getting datasets', level: 2 }).waitFor();
    await context.close();
  });

  it('marks only the imprint noindex and shows imprint, privacy policy and legal notice', async () => {
    const { context, page } = await openPage(browser);
    await page.goto('/imprint');
    const main = page.getByRole('main');
    for (const section of ['Operator', 'Privacy policy', 'Legal notice'])
      await main.getByRole('heading', { name: section, level: 2 }).waitFor();
    await expect(page.locator('meta[name="robots"]').getAttribute('content')).resolves.toBe('noindex');

    await page.getByRole('contentinfo').getByRole('link', { name: 'About', exact: true }).click();
    await heading1(page).filter({ hasText: 'About us' }).waitFor();
    await expect(page.locator('meta[name="robots"][content="noindex"]').count()).resolves.toBe(0);
    await context.close();
  });

  it('embeds the configured contact form and explains when none is configured', async () => {
    const { context, page } = await openPage(browser);
    await page.goto('/contact');
    await page
      .getByText('The contact form is not available at the moment. Please check back later.')
      .waitFor();
    await expect(page.locator('iframe').count()).resolves.toBe(0);

    const formUrl = 'https://forms.example.com/embed/contact';
    await page.route('**/api/config/public', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ contact_form_url: formUrl }),
      }),
    );
    await page.route('https://forms.example.com/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Contact form</h1>' }),
    );
    await page.reload();
    const frame = page.getByTitle('Contact form');
    await frame.waitFor();
    await expect(frame.getAttribute('src')).resolves.toBe(formUrl);
    await context.close();
  });

  it('lists four demo apps with prices and filters them by search and category', async () => {
    const { context, page, errors } = await openPage(browser);
    await page.goto('/dataapps');
    const main = page.getByRole('main');
    await main.locator('article').first().waitFor();
    await expect(appTitles(page)).resolves.toEqual([
      'Portfolio Insights',
      'Campaign Analyzer',
      'Climate Explorer',
      'API Monitor',
    ]);
    const prices = await main
      .locator('article')
      .evaluateAll((cards) => cards.map((card) => card.querySelector('.MuiCardActions-root p')?.textContent));
    expect(prices).toEqual(['€29', '€19', 'Free', '€39']);
    await expect(main.getByRole('button', { name: /^Buy / }).count()).resolves.toBe(4);
    const categories = main.getByRole('group', { name: 'Category' }).getByRole('button');
    await expect(categories.allInnerTexts()).resolves.toEqual([
      'All',
      'Finance',
      'Marketing',
      'Science',
      'Technology',
    ]);

    await main.getByRole('button', { name: 'Science', exact: true }).click();
    await expect(appTitles(page)).resolves.toEqual(['Climate Explorer']);
    await expect(pressed(page, 'Science')).resolves.toBe('true');
    await main.getByRole('button', { name: 'All', exact: true }).click();
    await expect(appTitles(page)).resolves.toHaveLength(4);

    await main.getByLabel('Search apps').fill('campaign');
    await expect(appTitles(page)).resolves.toEqual(['Campaign Analyzer']);
    await main.getByRole('button', { name: 'Finance', exact: true }).click();
    await main.getByText('No apps match your search.').waitFor();
    await main.getByLabel('Search apps').fill('');
    await expect(appTitles(page)).resolves.toEqual(['Portfolio Insights']);

    await main.getByRole('button', { name: 'Buy Portfolio Insights' }).click();
    await page.getByText('Data apps are a preview; buying them is not available yet.').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lists exactly the use_case posts of the blog on /use-cases', async () => {
    const { context, page } = await openPage(browser);
    const response = await page.request.get('/api/blog?type=use_case');
    const useCases = ((await response.json()) as Array<{ title: string; type: string }>).map(
      (post) => post.title,
    );
    expect(useCases.length).toBeGreaterThanOrEqual(3);
    await page.goto('/use-cases');
    const cards = page.getByRole('main').locator('article');
    await cards.first().waitFor();
    await expect(cards.locator('h2').allInnerTexts()).resolves.toEqual(useCases);
    await expect(cards.locator('.MuiChip-label').allInnerTexts()).resolves.toEqual(
      useCases.map(() => 'use_case'),
    );
    await context.close();
  });

  it('documents the connector DSL: spec fields, auth types, pagination, response_path, an example and the limits', async () => {
    const { context, page } = await openPage(browser);
    await page.goto('/documentation');
    const main = page.getByRole('main');
    await main.getByRole('table', { name: 'Top-level fields' }).waitFor();
    const firstColumn = (table: string) =>
      main.getByRole('table', { name: table }).locator('tbody tr > :first-child').allInnerTexts();

    await expect(firstColumn('Top-level fields')).resolves.toEqual(
      expect.arrayContaining(['title', 'description', 'protocol', 'auth', 'operations']),
    );
    await expect(firstColumn('Auth fields')).resolves.toEqual(
      expect.arrayContaining(['type', 'in', 'format', 'fields']),
    );
    await expect(firstColumn('Auth types')).resolves.toEqual([
      'bearer',
      'api_key',
      'basic',
      'header',
      'oauth2',
      'session',
    ]);
    await expect(firstColumn('Operation fields')).resolves.toEqual(
      expect.arrayContaining([
        'id',
        'name',
        'method',
        'url_path',
        'headers',
        'query',
        'body',
        'params_fields',
        'pagination',
        'response_path',
        'body_format',
        'response_filters',
        'parent',
      ]),
    );
    await expect(firstColumn('Schema field keys')).resolves.toEqual(
      expect.arrayContaining(['options', 'options_endpoint', 'depends_on', 'default']),
    );
    await expect(firstColumn('Pagination strategies')).resolves.toEqual(
      expect.arrayContaining(['page', 'cursor', 'offset', 'link_header', 'next_url', 'none']),
    );
    await expect(firstColumn('Response filter fields')).resolves.toEqual(
      expect.arrayContaining(['http_codes', 'action', 'message_path']),
    );
    await expect(firstColumn('Request options')).resolves.toEqual(
      expect.arrayContaining(['timeout_seconds', 'retries', 'rate_limit']),
    );
    // Each feature has a short example next to its table.
    const excerpt = async (label: string) => JSON.parse(await main.getByLabel(label).innerText()) as unknown;
    await expect(excerpt('OAuth2 client credentials example')).resolves.toMatchObject({
      auth: { grant_type: 'client_credentials' },
    });
    await expect(excerpt('Session token example')).resolves.toMatchObject({ auth: { type: 'session' } });
    await expect(excerpt('Link header example')).resolves.toMatchObject({
      pagination: { type: 'link_header' },
    });
    await expect(excerpt('Parent stream example')).resolves.toMatchObject({
      operations: [{ id: 'repos' }, { parent: { operation: 'repos' } }],
    });
    await main.getByRole('heading', { name: 'Response path', level: 2 }).waitFor();

    // The complete example is one the server's own validator accepts as an upload.
    const example: unknown = JSON.parse(await main.getByLabel('Complete connector spec').innerText());
    expect(validateConnectorSpec(example)).toEqual([]);
    expect(JSON.stringify(example)).toContain('"response_path"');

    const notSupported = main.getByRole('region', { name: 'Not supported' });
    const limits = await notSupported.locator('li .MuiListItemText-primary').allInnerTexts();
    expect(limits).toEqual(['WebSocket', 'GraphQL', 'Nested transforms', 'OAuth2 authorization-code flow']);
    await context.close();
  });

  it('shows a 404 page with a way home for an unknown address', async () => {
    const { context, page } = await openPage(browser);
    await page.goto('/definitely/not/here');
    await heading1(page).filter({ hasText: 'Page not found' }).waitFor();
    await expectTitle(page, 'Page not found · Data Marketplace');
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await context.close();
  });
});
