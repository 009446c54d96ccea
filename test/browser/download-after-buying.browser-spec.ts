import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { launchBrowser, openPage } from './support/browser';
import { apiAs, card, logIn, registerAndVerify, uniqueEmail } from './support/journey';

const PAID = 'Global Stock Prices 2024';
const PASSWORD = 'browser-journey-2026';

describe('Download right after buying', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('downloads at once without an API key, and creates the key for stream links on first need', async () => {
    const { context, page, errors } = await openPage(browser);
    const email = uniqueEmail('fresh-buyer');
    await registerAndVerify(page, 'Fresh Buyer', email, PASSWORD);
    await logIn(page, email, PASSWORD);

    // Searched for, so datasets other journeys uploaded cannot push it off the first page.
    await page.goto(`/datastore?q=${encodeURIComponent(PAID)}`);
    await card(page, PAID).getByRole('link').click();
    await page.getByRole('heading', { name: 'Sample Data Preview' }).waitFor();
    const assetId = new URL(page.url()).pathname.split('/').pop()!;
    await apiAs(page, 'POST', 'access/grant', { assetId });
    await page.reload();
    await page.getByRole('heading', { name: 'Download and stream' }).waitFor();
    // The menu says which download spreadsheets should open.
    await page
      .getByText(/To open the data in Excel or another spreadsheet, use Download Excel \(\.xlsx\)/)
      .waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download CSV' }).click(),
    ]);
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv.split('\n')[0].length).toBeGreaterThan(0);
    expect(csv.split('\n').filter(Boolean).length).toBeGreaterThan(1);
    await expect(page.getByText('YOUR_API_KEY').count()).resolves.toBe(0);

    await page.getByRole('button', { name: 'Create my API key' }).click();
    await page.getByText('API Key generated!').waitFor();
    // The notice comes with the answer; the links once the signed-in user (with the key) is reloaded.
    const section = page.locator('section[aria-labelledby="links-heading"]');
    await section.getByRole('button', { name: 'Copy JSON stream link' }).waitFor();
    const links = await section.innerText();
    const tableName = (await apiAs<{ readable_name: string }>(page, 'GET', `assets/${assetId}`))
      .readable_name;
    expect(links).toMatch(new RegExp(`/api/stream/data/${tableName}\\?api_key=[A-Za-z0-9_-]{16,}`));
    expect(errors).toEqual([]);
    await context.close();
  });
});
