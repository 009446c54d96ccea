import type { Browser } from 'playwright-core';
import { launchBrowser, openPage, screenshot, ViewportName } from './support/browser';

const FOOTER_LINKS = [
  '/about',
  '/datastore',
  '/dataapps',
  '/api-documentation',
  '/use-cases',
  '/blog',
  '/documentation',
  '/contact',
  '/terms',
  '/imprint',
];

describe('the app shell in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  describe.each<ViewportName>(['desktop', 'phone'])('at %s width', (viewport) => {
    it('renders the landing page with header and footer for a visitor', async () => {
      const { context, page, errors } = await openPage(browser, viewport);
      await page.goto('/');
      const header = page.getByRole('banner');
      if (viewport === 'desktop') {
        await header.getByRole('link', { name: 'Register' }).waitFor();
        await header.getByRole('link', { name: 'Login' }).waitFor();
      }
      const footer = page.getByRole('contentinfo');
      for (const href of FOOTER_LINKS) {
        expect(await footer.locator(`a[href="${href}"]`).count()).toBeGreaterThan(0);
      }
      await expect(footer.innerText()).resolves.toContain(String(new Date().getFullYear()));
      await screenshot(page, 'landing', viewport);
      expect(errors).toEqual([]);
      await context.close();
    });

    it('renders the datastore with the shared header and footer', async () => {
      const { context, page, errors } = await openPage(browser, viewport);
      await page.goto('/datastore');
      await page.getByRole('contentinfo').waitFor();
      await page.waitForLoadState('networkidle');
      await screenshot(page, 'datastore', viewport);
      expect(errors).toEqual([]);
      await context.close();
    });
  });
});
