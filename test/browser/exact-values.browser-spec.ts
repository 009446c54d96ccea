import type { Browser } from 'playwright-core';
import { baseUrl, launchBrowser, VIEWPORTS } from './support/browser';
import { gridRowTexts, logIn, registerAndVerify, uniqueEmail } from './support/journey';

const PASSWORD = 'browser-exact-2026';
const CSV = 'id,note,seen_at\n1,"",2025-11-17 05:11:07.758\n2,,2025-11-17 23:59:59\n';

describe('the grid shows values as uploaded', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('shows an empty string as "" apart from a blank null, and naive times as written in any browser zone', async () => {
    // Far from UTC: a time read in the browser's zone would show other hours.
    const context = await browser.newContext({
      viewport: VIEWPORTS.desktop,
      baseURL: baseUrl(),
      timezoneId: 'America/New_York',
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const email = uniqueEmail('exact');
    await registerAndVerify(page, 'Exact Eve', email, PASSWORD);
    await logIn(page, email, PASSWORD);
    const upload = await page.request.post(`${baseUrl()}/api/assets/upload-csv`, {
      headers: { origin: baseUrl() },
      multipart: {
        title: `Exact values ${Date.now()}`,
        price: '0',
        file: { name: 'exact.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) },
      },
    });
    expect(upload.status()).toBe(201);
    const { id } = (await upload.json()) as { id: string };

    await page.goto(`/dataset_profile/${id}`);
    const grid = page.getByRole('grid', { name: 'Dataset rows' });
    const [first, second] = await gridRowTexts(grid);
    expect(first).toContain('2025-11-17 05:11:07.758');
    expect(first).toContain('""');
    expect(second).toContain('2025-11-17 23:59:59');
    expect(second).not.toContain('""');
    await expect(grid.getByLabel('empty text').count()).resolves.toBe(1);
    // The profile is drawn for wide and narrow screens alike; one is enough.
    await page.getByText('50% empty text ("")').first().waitFor({ state: 'attached' });
    expect(errors).toEqual([]);
    await context.close();
  });
});
