import type { Browser, Request } from 'playwright-core';
import { launchBrowser, openPage } from './support/browser';

const VISITOR_PAGES = [
  '/',
  '/datastore',
  '/blog',
  '/login',
  '/register',
  '/documentation',
  '/about',
  '/terms',
];

/** The DataStore's request for a page of datasets (not categories or facets). */
function isCataloguePage(request: Request): boolean {
  const url = new URL(request.url());
  return url.pathname === '/api/assets' && url.searchParams.has('limit');
}

describe('a visitor’s browser console', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it.each(VISITOR_PAGES)('stays free of errors on %s (no failed session check)', async (path) => {
    const { context, page, errors, consoleErrors } = await openPage(browser);
    const sessionChecks: number[] = [];
    const isSessionCheck = (url: string) => new URL(url).pathname.startsWith('/api/users/');
    page.on('response', (response) => {
      if (isSessionCheck(response.url())) sessionChecks.push(response.status());
    });
    // Awaited by name: on a starved CPU the app can still be starting after half a second
    // without requests, which is all that 'networkidle' waits for.
    const sessionChecked = page.waitForResponse((response) => isSessionCheck(response.url()));
    await page.goto(path);
    await page.getByRole('contentinfo').waitFor();
    await sessionChecked;
    await page.waitForLoadState('networkidle');
    expect(sessionChecks).toEqual([200]);
    expect(consoleErrors).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('loads /datastore with one catalogue request, none aborted', async () => {
    const { context, page, consoleErrors } = await openPage(browser);
    const sent: string[] = [];
    const failed: string[] = [];
    page.on('request', (request) => {
      if (isCataloguePage(request)) sent.push(request.url());
    });
    page.on('requestfailed', (request) => failed.push(`${request.url()}: ${request.failure()?.errorText}`));
    await page.goto('/datastore');
    await page.getByRole('region', { name: 'Results' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(sent).toHaveLength(1);
    expect(failed).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
