import type { Browser, Page } from 'playwright-core';
import { expectEventually, expectTitle, horizontalOverflow, snapshot } from './support/accounts';
import { baseUrl, launchBrowser, openPage, ViewportName } from './support/browser';
import { apiAs, card, expectNotice, logIn, registerAndVerify, uniqueEmail } from './support/journey';

const PASSWORD = 'browser-words-2026';
const FREE = 'Exoplanet Discoveries';
const PAID = 'Global Stock Prices 2024';

/** Uploads a private dataset through the API with the page's session; answers its readable name. */
async function uploadCities(page: Page): Promise<string> {
  const upload = await page.request.post(`${baseUrl()}/api/assets/upload-csv`, {
    headers: { origin: baseUrl() },
    multipart: {
      title: `Cities ${Date.now()}`,
      price: '0',
      file: {
        name: 'cities.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('city,population,country\nOslo,700000,NO\nLima,10000000,PE\n'),
      },
    },
  });
  expect(upload.status()).toBe(201);
  const { id } = (await upload.json()) as { id: string };
  const detail = await page.request.get(`${baseUrl()}/api/assets/${id}`);
  return ((await detail.json()) as { readable_name: string }).readable_name;
}

/** The box of an element as the page lays it out. */
async function box(page: Page, selector: string) {
  const found = await page.locator(selector).first().boundingBox();
  if (!found) throw new Error(`${selector} is not on screen`);
  return found;
}

describe('the workspace and the screens say what is true', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it.each<ViewportName>(['desktop', 'phone'])(
    'offers the columns of the tables a statement reads for a bare word, and closes the list on Ctrl+Enter (%s)',
    async (viewport) => {
      const { context, page, errors } = await openPage(browser, viewport);
      const email = uniqueEmail(`words-${viewport}`);
      await registerAndVerify(page, 'Cora Columns', email, PASSWORD);
      await logIn(page, email, PASSWORD);
      const table = await uploadCities(page);

      await page.goto(`/query?table=${table}`);
      const editor = page.locator('.cm-content');
      await editor.click();
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Delete');
      await page.keyboard.type(`SELECT * FROM ${table} ORDER BY pop`);
      const list = page.locator('.cm-tooltip-autocomplete');
      await list.waitFor();
      const firstOption = list.locator('li').first().locator('.cm-completionLabel');
      // The column comes first, before keywords such as POSITION.
      await expectEventually(() => firstOption.innerText(), 'population');
      const editorBox = await box(page, '.cm-editor');
      const listBox = await box(page, '.cm-tooltip-autocomplete');
      expect(listBox.x).toBeGreaterThanOrEqual(editorBox.x - 1);
      expect(listBox.x + listBox.width).toBeLessThanOrEqual(editorBox.x + editorBox.width + 1);
      if (viewport === 'phone') expect(await horizontalOverflow(page)).toBe(0);
      await snapshot(page, 'query-column-completion', viewport);

      // The whole word typed: the list still offers it, and the statement is complete.
      await page.keyboard.type('ulation');
      await list.waitFor();
      await page.keyboard.press('Control+Enter');
      await page.getByRole('status', { name: 'Result summary' }).waitFor();
      await expect(list.count()).resolves.toBe(0);
      await snapshot(page, 'query-after-run', viewport);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it('offers a bought and removed dataset back for free on a phone, without a price', async () => {
    const { context, page, errors } = await openPage(browser, 'phone');
    const email = uniqueEmail('words-again');
    await registerAndVerify(page, 'Gus Again', email, PASSWORD);
    await logIn(page, email, PASSWORD);
    await page.goto('/datastore');
    await page.getByLabel('Search datasets').fill('Stock Prices');
    await card(page, PAID).getByRole('link').click();
    await page.waitForURL('**/dataset_profile/**');
    const id = new URL(page.url()).pathname.split('/').pop();
    await apiAs(page, 'POST', 'access/grant', { assetId: id });
    await apiAs(page, 'POST', 'access/remove', { assetId: id });
    await page.reload();
    await page.getByRole('button', { name: 'Get again — free', exact: true }).waitFor();
    expect((await page.locator('main').textContent()) ?? '').not.toContain('$');
    expect(await horizontalOverflow(page)).toBe(0);
    await snapshot(page, 'dataset-get-again', 'phone');
    await page.goto('/datastore?q=Stock%20Prices');
    await expectEventually(() => card(page, PAID).getByRole('button').innerText(), 'Get again — free');
    await snapshot(page, 'datastore-get-again', 'phone');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('replaces "Invalid email or password" with the success of the next try at once', async () => {
    const { context, page } = await openPage(browser);
    const email = uniqueEmail('words-login');
    await registerAndVerify(page, 'Lena Login', email, PASSWORD);
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Login' }).click();
    const refusal = page.locator('.MuiSnackbar-root').filter({ hasText: 'Invalid email or password' });
    await refusal.waitFor();

    // The page's clock stands still from here: only the fake time given below passes, so what is
    // on screen is decided by the app's rule, not by how fast this machine is.
    await page.clock.install();
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL('**/manage');
    // A snackbar's exit transition takes a fifth of a second; an error kept for its minimum
    // readable time would still be there after a whole one.
    await page.clock.runFor(1_000);
    await refusal.waitFor({ state: 'detached' });
    await page
      .locator('.MuiSnackbar-root')
      .filter({ hasText: 'Login successful' })
      .waitFor({ state: 'visible' });
    await snapshot(page, 'login-after-refusal', 'desktop');
    await context.close();
  });

  it("names the dataset in the tab and says the catalogue's order before one is chosen", async () => {
    for (const viewport of ['desktop', 'phone'] as const) {
      const { context, page, errors } = await openPage(browser, viewport);
      await page.goto('/datastore');
      const sort = page.getByRole('combobox', { name: 'Sort by' });
      await expect(sort.innerText()).resolves.toBe('Newest');
      await page.getByLabel('Search datasets').fill('Exoplanet');
      await expectEventually(() => sort.innerText(), 'Best match');
      await card(page, FREE).waitFor();
      await snapshot(page, 'datastore-sort-default', viewport);

      await card(page, FREE).getByRole('link').click();
      await page.getByRole('heading', { name: FREE, level: 1 }).waitFor();
      await expectTitle(page, `${FREE} · Data Marketplace`);
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('keeps the imprint out of search results in the page the server sends, and indexes the next screen', async () => {
    const { context, page } = await openPage(browser);
    // As a crawler sees it, before any script runs.
    const sent = await (await page.request.get(`${baseUrl()}/imprint`)).text();
    expect(sent).toContain('<meta name="robots" content="noindex" />');
    await page.goto('/imprint');
    await page.getByRole('heading', { name: 'Imprint', level: 1 }).waitFor();
    await expect(page.locator('meta[name="robots"]').count()).resolves.toBe(1);
    await page.getByRole('contentinfo').getByRole('link', { name: 'About', exact: true }).click();
    await page.getByRole('heading', { name: 'About us', level: 1 }).waitFor();
    await expectEventually(() => page.locator('meta[name="robots"]').count(), 0);
    await context.close();
  });

  it('names a connector in the tab', async () => {
    const { context, page } = await openPage(browser);
    await page.goto('/datastore');
    const connector = page.locator('article').filter({ hasText: 'API' }).first();
    const title = (await connector.getByRole('heading').first().innerText()).trim();
    await connector.getByRole('link').first().click();
    await page.waitForURL('**/connector_profile/**');
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    await expectTitle(page, `${title} · Data Marketplace`);
    await context.close();
  });

  it('lands on the new connector with its success, not the failed upload before it', async () => {
    const { context, page } = await openPage(browser);
    const email = uniqueEmail('words-connector');
    await registerAndVerify(page, 'Cy Connector', email, PASSWORD);
    await logIn(page, email, PASSWORD);
    await page.goto('/upload?tab=connector');
    const spec = page.getByLabel('Connector spec (JSON)');
    const example = await spec.inputValue();
    await page.getByLabel('Title').fill(`Words API ${Date.now()}`);
    await spec.fill(JSON.stringify({ protocol: 'websocket', operations: [{ id: 'x' }] }));
    await page.getByRole('button', { name: 'Upload Connector' }).click();
    const failed = page.locator('.MuiSnackbar-root').filter({ hasText: 'Upload failed' });
    await failed.waitFor();
    await page.clock.install();
    await spec.fill(example);
    await page.getByRole('button', { name: 'Upload Connector' }).click();
    await page.waitForURL('**/connector_profile/**');
    await page.clock.runFor(1_000);
    await failed.waitFor({ state: 'detached' });
    await expectNotice(page, 'Connector uploaded.');
    await context.close();
  });

  it('shows a success notice for the good upload even when a failed one is still on screen', async () => {
    const { context, page } = await openPage(browser);
    const email = uniqueEmail('words-upload');
    await registerAndVerify(page, 'Uma Upload', email, PASSWORD);
    await logIn(page, email, PASSWORD);
    await page.goto('/upload');
    await page.getByRole('tab', { name: 'Upload Dataset' }).waitFor();
    await page.getByLabel('Title').fill('Broken file');
    await page
      .getByLabel('CSV file')
      .setInputFiles({ name: 'empty.csv', mimeType: 'text/csv', buffer: Buffer.alloc(0) });
    await page.getByRole('button', { name: 'Upload Dataset' }).click();
    const failed = page.locator('.MuiSnackbar-root').filter({ hasText: 'Upload failed' });
    await failed.waitFor();
    await page.clock.install();
    await page
      .getByLabel('CSV file')
      .setInputFiles({ name: 'good.csv', mimeType: 'text/csv', buffer: Buffer.from('a,b\n1,2\n') });
    await page.getByRole('button', { name: 'Upload Dataset' }).click();
    await page.waitForURL('**/dataset_profile/**');
    await page.clock.runFor(1_000);
    await failed.waitFor({ state: 'detached' });
    await expectNotice(page, 'Dataset uploaded.');
    await context.close();
  });
});
