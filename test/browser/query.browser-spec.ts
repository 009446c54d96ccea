import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { readParquet } from '../stream/support/read-parquet';
import { horizontalOverflow, snapshot } from './support/accounts';
import { baseUrl, launchBrowser, openPage, ViewportName } from './support/browser';
import {
  eventually,
  expectNotice,
  gridRowTexts,
  logIn,
  registerAndVerify,
  uniqueEmail,
} from './support/journey';

const PASSWORD = 'browser-query-2026';
const CSV = 'city,visitors\nOslo,30\nLima,10\nKyiv,20\n';

/** Uploads a private dataset through the API with the page's session; answers its id and readable name. */
async function uploadVisits(page: Page, title: string): Promise<{ id: string; name: string }> {
  const upload = await page.request.post(`${baseUrl()}/api/assets/upload-csv`, {
    headers: { origin: baseUrl() },
    multipart: {
      title,
      price: '0',
      file: { name: 'visits.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) },
    },
  });
  expect(upload.status()).toBe(201);
  const { id } = (await upload.json()) as { id: string };
  const detail = await page.request.get(`${baseUrl()}/api/assets/${id}`);
  return { id, name: ((await detail.json()) as { readable_name: string }).readable_name };
}

/** Replaces the editor's text by typing, as a user does (completion pops up on the way). */
async function typeSql(page: Page, sql: string): Promise<void> {
  const editor = page.locator('.cm-content');
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.type(sql);
  await page.keyboard.press('Escape');
}

describe('the SQL workspace', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it.each<ViewportName>(['desktop', 'phone'])(
    'opens a held dataset from its Query button, runs, charts, saves and downloads a query (%s)',
    async (viewport) => {
      const { page, errors } = await openPage(browser, viewport);
      const email = uniqueEmail(`query-${viewport}`);
      await registerAndVerify(page, 'Quinn Query', email, PASSWORD);
      await logIn(page, email, PASSWORD);
      const { id, name } = await uploadVisits(page, `City Visits ${viewport} ${Date.now()}`);

      await page.goto(`/dataset_profile/${id}`);
      await page.getByRole('link', { name: 'Query', exact: true }).click();
      await page.waitForURL(`**/query?table=${name}`);
      const editor = page.locator('.cm-content');
      await eventually(
        async () => (await editor.innerText()) === `SELECT * FROM ${name} LIMIT 100`,
        'the editor to open on the table',
      );

      // An error is shown beside the editor, with where it points.
      await typeSql(page, `SELECT nope FROM ${name}`);
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      await expect(page.getByRole('alert', { name: 'Query error' }).innerText()).resolves.toBe(
        'column "nope" does not exist (line 1, column 8)',
      );

      const sql = `SELECT city, visitors FROM ${name} ORDER BY visitors`;
      await typeSql(page, sql);
      await page.keyboard.press('Control+Enter');
      const summary = page.getByRole('status', { name: 'Result summary' });
      await summary.waitFor();
      expect(await summary.innerText()).toMatch(/^3 rows in \d+ ms$/);
      const grid = page.getByRole('grid', { name: 'Query result' });
      const rows = await gridRowTexts(grid);
      expect(rows.map((row) => row.replace(/\s+/g, ' ').trim())).toEqual(['Lima 10', 'Kyiv 20', 'Oslo 30']);
      if (viewport === 'phone') expect(await horizontalOverflow(page)).toBe(0);
      await snapshot(page, 'query-result', viewport);

      await page.getByRole('tab', { name: 'Chart' }).click();
      const chart = page.getByRole('figure', { name: 'bar chart of visitors by city' });
      await chart.waitFor();
      expect(await chart.locator('svg').count()).toBeGreaterThan(0);
      await page.getByRole('button', { name: 'line' }).click();
      await page.getByRole('figure', { name: 'line chart of visitors by city' }).waitFor();
      if (viewport === 'phone') expect(await horizontalOverflow(page)).toBe(0);
      await snapshot(page, 'query-chart', viewport);

      const saveName = `Visitors by city ${viewport}`;
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Save query' });
      await dialog.getByLabel('Name').fill(saveName);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expectNotice(page, `Saved as “${saveName}”`);

      await page.getByRole('tab', { name: 'Saved' }).click();
      const saved = page.getByRole('list', { name: 'Saved queries' });
      await saved.getByText(saveName).waitFor();
      expect(await saved.innerText()).toContain(sql);
      await page.getByRole('tab', { name: 'History' }).click();
      const history = page.getByRole('list', { name: 'Query history' });
      await history.getByText(sql).first().waitFor();
      expect(await history.innerText()).toContain('column "nope" does not exist');

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download CSV' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('query.csv');
      expect(readFileSync(await download.path(), 'utf8')).toBe('city,visitors\nLima,10\nKyiv,20\nOslo,30\n');
      const [parquetDownload] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download Parquet' }).click(),
      ]);
      expect(parquetDownload.suggestedFilename()).toBe('query.parquet');
      const parquet = await readParquet(readFileSync(await parquetDownload.path()));
      expect(parquet.rows).toEqual([
        { city: 'Lima', visitors: 10n },
        { city: 'Kyiv', visitors: 20n },
        { city: 'Oslo', visitors: 30n },
      ]);

      if (viewport === 'phone') expect(await horizontalOverflow(page)).toBe(0);
      await snapshot(page, 'query-saved-history', viewport);
      expect(errors).toEqual([]);
    },
  );

  it('cancels a long query from the screen, and the server records it as cancelled', async () => {
    const { page, errors } = await openPage(browser);
    const email = uniqueEmail('query-cancel');
    await registerAndVerify(page, 'Cora Cancel', email, PASSWORD);
    await logIn(page, email, PASSWORD);
    const { name } = await uploadVisits(page, `Cancel Visits ${Date.now()}`);
    await page.goto(`/query?table=${name}`);
    // Billions of rows from a cross join of the three-row table: far longer than the test waits.
    const sql = `SELECT count(*) FROM ${Array.from({ length: 20 }, (_, index) => `${name} t${index}`).join(', ')}`;
    await typeSql(page, sql);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('button', { name: 'Running…' }).waitFor();
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByText('Query cancelled.').waitFor();
    expect(await page.getByRole('button', { name: 'Run', exact: true }).isEnabled()).toBe(true);
    // Opening the History tab reads it afresh. The statement limit (10 s) would write another
    // message: "Cancelled" comes from the server noticing the aborted request at once.
    const panels = page.getByRole('complementary', { name: 'Tables, saved queries and history' });
    await eventually(
      async () => {
        await page.getByRole('tab', { name: 'Tables' }).click();
        await page.getByRole('tab', { name: 'History' }).click();
        return (await panels.innerText()).includes('Cancelled');
      },
      'the cancelled run in the history',
      8000,
    );
    expect(errors).toEqual([]);
  });
});
