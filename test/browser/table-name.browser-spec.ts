import type { Browser } from 'playwright-core';
import { baseUrl, launchBrowser, openPage, screenshot } from './support/browser';
import { expectNotice, logIn, registerAndVerify, uniqueEmail } from './support/journey';

const PASSWORD = 'browser-names-2026';

describe("a dataset's readable table name on its detail page", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('shows the name made from the title, copies it, and the holder links use it', async () => {
    const { context, page, errors } = await openPage(browser);
    const email = uniqueEmail('table-name');
    await registerAndVerify(page, 'Nina Names', email, PASSWORD);
    await logIn(page, email, PASSWORD);
    const stamp = Date.now();
    const upload = await page.request.post(`${baseUrl()}/api/assets/upload-csv`, {
      headers: { origin: baseUrl() },
      multipart: {
        title: `Harbour Tides ${stamp}`,
        price: '0',
        file: { name: 'tides.csv', mimeType: 'text/csv', buffer: Buffer.from('port,height\nKiel,1.2\n') },
      },
    });
    expect(upload.status()).toBe(201);
    const { id } = (await upload.json()) as { id: string };
    // The title's base, then digits of the dataset's own id.
    const expected = `harbour_tides_${stamp}_${id.replace(/-/g, '').slice(0, 4)}`;

    await page.goto(`/dataset_profile/${id}`);
    await page.getByRole('heading', { name: 'What you get' }).waitFor();
    await expect(page.getByLabel('Table name', { exact: true }).innerText()).resolves.toBe(expected);

    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
    await page.getByRole('button', { name: 'Copy table name' }).click();
    await expectNotice(page, 'Table name copied.');
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(expected);

    // Stream links carry the personal key: the first one is made in place.
    await page.getByRole('button', { name: 'Create my API key' }).click();
    await page.getByRole('button', { name: 'Copy JSON stream link' }).waitFor();
    const links = await page.locator('section[aria-labelledby="links-heading"]').innerText();
    expect(links).toContain(`/api/stream/data/${expected}?api_key=`);
    await screenshot(page, 'dataset-table-name', 'desktop');
    expect(errors).toEqual([]);
  });
});
