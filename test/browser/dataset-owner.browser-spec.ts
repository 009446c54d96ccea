import type { Browser, Page } from 'playwright-core';
import { baseUrl, launchBrowser, openPage, screenshot, ViewportName } from './support/browser';
import { apiAs, eventually, expectNotice, logIn, registerAndVerify, uniqueEmail } from './support/journey';

const PASSWORD = 'browser-owner-2026';
const FIRST = 'ferry,departures,day\nNorth,12,2025-01-01\nSouth,7,2025-01-02\nWest,3,2025-01-03\n';

/** Uploads a CSV as the page's user (the upload form has its own journey) and returns the dataset id. */
async function uploadAs(page: Page, title: string, csv: string): Promise<string> {
  const response = await page.request.post(`${baseUrl()}/api/assets/upload-csv`, {
    headers: { origin: baseUrl() },
    multipart: {
      title,
      price: '0',
      file: { name: 'ferries.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) },
    },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function chooseRefreshFile(page: Page, csv: string) {
  await page
    .getByLabel('CSV file')
    .setInputFiles({ name: 'next.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
}

/** The value of one fact ("Rows", "License", …) in the detail's product section. */
function fact(page: Page, term: string) {
  return page
    .locator('dl[aria-label="Dataset facts"] > div')
    .filter({ has: page.locator('dt', { hasText: term }) })
    .locator('dd');
}

describe('a dataset as a product: the owner edits, refreshes and deletes it; everyone sees what it holds', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('shows the facts, dictionary, profile and versions to a visitor at desktop and phone width', async () => {
    const { page: ownerPage } = await openPage(browser);
    const email = uniqueEmail('product-owner');
    await registerAndVerify(ownerPage, 'Fiona Ferry', email, PASSWORD);
    await logIn(ownerPage, email, PASSWORD);
    const id = await uploadAs(ownerPage, `Ferry departures ${Date.now()}`, FIRST);
    await apiAs(ownerPage, 'PATCH', `assets/${id}`, {
      licence: 'CC-BY-4.0',
      dictionary: { departures: 'Sailings per day' },
    });

    for (const viewport of ['desktop', 'phone'] as ViewportName[]) {
      const { page, errors } = await openPage(browser, viewport);
      await page.goto(`/dataset_profile/${id}`);
      await page.getByRole('heading', { name: 'What you get' }).waitFor();
      await expect(fact(page, 'Rows').innerText()).resolves.toBe('3');
      await expect(fact(page, 'License').innerText()).resolves.toBe('CC-BY-4.0');
      const dictionary = page.getByRole('table', { name: 'Data dictionary' });
      await expect(dictionary.getByRole('row', { name: /departures/ }).innerText()).resolves.toMatch(
        /departures\s+integer\s+Sailings per day\s+100% filled · 3 distinct/,
      );
      await expect(page.getByRole('list', { name: 'Versions' }).innerText()).resolves.toContain(
        'First upload · 3 rows',
      );
      // A visitor gets neither the owner's panel nor the holder's links.
      await expect(page.getByRole('heading', { name: 'Your dataset' }).count()).resolves.toBe(0);
      await expect(page.getByRole('heading', { name: 'Download and stream' }).count()).resolves.toBe(0);
      await screenshot(page, 'dataset-product-visitor', viewport);
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });

  it('lets the owner edit, refresh (and be told why a bad file is refused) and delete, at desktop and phone width', async () => {
    for (const viewport of ['desktop', 'phone'] as ViewportName[]) {
      const { page, errors } = await openPage(browser, viewport);
      const email = uniqueEmail(`owner-${viewport}`);
      await registerAndVerify(page, 'Olaf Owner', email, PASSWORD);
      await logIn(page, email, PASSWORD);
      const title = `Ferries ${viewport} ${Date.now()}`;
      const id = await uploadAs(page, title, FIRST);

      // A buyer holds it, so deleting it will cost one holder their access.
      const { page: buyerPage } = await openPage(browser);
      const buyerEmail = uniqueEmail(`buyer-${viewport}`);
      await registerAndVerify(buyerPage, 'Bo Buyer', buyerEmail, PASSWORD);
      await logIn(buyerPage, buyerEmail, PASSWORD);
      await apiAs(buyerPage, 'POST', 'access/grant', { assetId: id });
      await buyerPage.context().close();

      await page.goto(`/dataset_profile/${id}`);
      await page.getByRole('heading', { name: 'Your dataset' }).waitFor();
      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      const edit = page.getByRole('dialog', { name: 'Edit dataset' });
      await edit.getByLabel('Title').fill(`${title} (edited)`);
      await edit.getByLabel('License').click();
      await page
        .getByRole('option', { name: 'Open Data Commons Open Database License 1.0 (ODbL-1.0)' })
        .click();
      await edit.getByLabel('departures (integer)').fill('Sailings that left the port');
      await screenshot(page, 'dataset-owner-edit', viewport);
      await edit.getByRole('button', { name: 'Save' }).click();
      await expectNotice(page, 'Dataset saved.');
      await page
        .getByRole('heading', { name: `${title} (edited)` })
        .first()
        .waitFor();
      await expect(fact(page, 'License').innerText()).resolves.toBe('ODbL-1.0');

      // A file with another header is refused with the reason, and nothing changes.
      await page.getByRole('button', { name: 'Refresh data' }).click();
      const refresh = page.getByRole('dialog', { name: /^Refresh/ });
      await chooseRefreshFile(page, 'boat,count\nA,1\n');
      await refresh.getByRole('button', { name: 'Replace data' }).click();
      await expect(refresh.getByRole('alert').innerText()).resolves.toContain(
        "The file's columns (boat, count) are not the dataset's (ferry, departures, day).",
      );
      await refresh.getByLabel('Append to the rows').check();
      await chooseRefreshFile(page, 'ferry,departures,day\nEast,5,2025-01-04\nHarbour,9,2025-01-05\n');
      await refresh.getByRole('button', { name: 'Append data' }).click();
      await expectNotice(page, '2 rows appended: 5 in total.');
      await eventually(async () => (await fact(page, 'Rows').innerText()) === '5', 'the row count to show 5');
      await expect(page.getByRole('list', { name: 'Versions' }).innerText()).resolves.toContain(
        'Appended · 2 rows',
      );
      await page.getByRole('img', { name: 'Grid views per day' }).waitFor();
      await screenshot(page, 'dataset-owner-detail', viewport);

      await page.goto('/manage?tab=uploaded');
      await page.getByRole('button', { name: `Remove ${title} (edited)` }).click();
      const confirm = page.getByRole('dialog', { name: `Delete “${title} (edited)”?` });
      await expect(confirm.innerText()).resolves.toContain('1 holder loses access.');
      await screenshot(page, 'dataset-owner-delete', viewport);
      await confirm.getByRole('button', { name: 'Delete dataset' }).click();
      await expectNotice(page, 'Dataset deleted. 1 holder lost access.');
      await eventually(
        async () => (await page.getByRole('button', { name: `Remove ${title} (edited)` }).count()) === 0,
        'the dataset to leave the list',
      );
      const gone = await page.request.get(`${baseUrl()}/api/assets/${id}`);
      expect(gone.status()).toBe(404);
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });
});
