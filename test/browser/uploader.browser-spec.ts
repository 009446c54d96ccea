import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, screenshot, ViewportName } from './support/browser';
import { card, eventually, expectNotice, logIn, registerAndVerify, uniqueEmail } from './support/journey';

const PASSWORD = 'browser-uploader-2026';
const ROWS = 40_000;

/** A CSV of a few megabytes, large enough for the progress bar to show on a throttled upload. */
function harbourCsv(): Buffer {
  const lines = ['reading_id,harbour,water_level_cm,measured_on'];
  for (let index = 1; index <= ROWS; index++) {
    lines.push(
      `${index},Harbour ${index % 7},${(index % 500) + 0.25},2025-0${(index % 9) + 1}-1${index % 10}`,
    );
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

async function chooseFile(page: Page, name: string, buffer: Buffer, mimeType = 'text/csv') {
  await page.getByLabel('CSV file').setInputFiles({ name, mimeType, buffer });
}

async function streamLink(page: Page, label: string): Promise<string> {
  const row = page.getByRole('button', { name: `Copy ${label}` }).locator('..');
  return (await row.locator('code').innerText()).trim();
}

describe('uploading a dataset and streaming it in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('uploads a CSV with progress, lists it everywhere and streams it with a key that can be replaced', async () => {
    const { context, page, errors } = await openPage(browser);
    const email = uniqueEmail('uploader');
    const title = `Harbour Water Levels ${Date.now()}`;
    await registerAndVerify(page, 'Browser Uploader', email, PASSWORD);
    await logIn(page, email, PASSWORD);

    await page.goto('/upload');
    await page.getByRole('tab', { name: 'Upload Dataset', selected: true }).waitFor();
    await screenshot(page, 'upload-dataset', 'desktop');
    const submit = page.getByRole('button', { name: 'Upload Dataset' });
    await submit.click();
    const snackbar = page.locator('.MuiSnackbar-root').filter({ hasText: 'Add title & CSV file.' });
    await snackbar.waitFor();
    const formAlert = page.locator('form').getByRole('alert');
    await expect(formAlert.innerText()).resolves.toBe('Add title & CSV file.');
    // Fixing the form takes the message away, beside the form and in the snackbar (well before
    // the snackbar's own 5 s): it no longer stands.
    await page.getByLabel('Title').fill(title);
    await expect(formAlert.count()).resolves.toBe(0);
    await snackbar.waitFor({ state: 'detached', timeout: 2_000 });
    // A file of the wrong kind is said as soon as it is chosen, and Upload's notice says the same
    // (the title is there: 'Add title & CSV file.' would not be true).
    const wrongKind =
      '“levels.txt” is not a CSV, Excel or Parquet file: choose a file ending in .csv, .xlsx or .parquet.';
    await chooseFile(page, 'levels.txt', Buffer.from('a,b\n1,2\n'), 'text/plain');
    await expect(formAlert.innerText()).resolves.toBe(wrongKind);
    await screenshot(page, 'upload-wrong-file-kind', 'desktop');
    await submit.click();
    await expectNotice(page, wrongKind);
    await expect(formAlert.innerText()).resolves.toBe(wrongKind);

    // A file the server cannot read: 'Upload failed' with the server's reason beside the form.
    await chooseFile(page, 'empty.csv', Buffer.alloc(0));
    await submit.click();
    await expectNotice(page, 'Upload failed');
    const failure = await page.locator('form').getByRole('alert').innerText();
    expect(failure).toMatch(/^Upload failed: \S/);

    await page.getByLabel('Description').fill('Water levels measured in seven harbours.');
    await page.getByLabel('Category').fill('Environment');
    await page.getByLabel('License').click();
    await page.getByRole('option', { name: 'Creative Commons Attribution 4.0 (CC-BY-4.0)' }).click();
    await chooseFile(page, 'harbour-levels.csv', harbourCsv());
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 600_000,
    });
    await page.getByRole('button', { name: 'Upload Dataset' }).click();
    const progress = page.getByRole('progressbar', { name: 'Upload progress' });
    await eventually(async () => {
      const value = Number(await progress.getAttribute('aria-valuenow', { timeout: 100 }));
      return value > 0 && value < 100;
    }, 'the upload progress between 0 and 100 %');
    await expect(progress.count()).resolves.toBe(1);
    await screenshot(page, 'upload-progress', 'desktop');
    await page.waitForURL(/\/dataset_profile\/[0-9a-f-]{36}$/, { timeout: 60_000 });
    await expectNotice(page, 'Dataset uploaded.');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    const datasetId = page.url().split('/').pop() as string;

    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    await page.getByText(`1–25 of ${ROWS.toLocaleString('en-US')}`).waitFor();
    await page.getByText('CC-BY-4.0', { exact: true }).first().waitFor();
    // The owner is offered neither Get/Buy nor Remove on their own dataset: it is theirs, managed in Manage.
    const hero = page.locator('main header');
    await hero.getByText('You own this', { exact: true }).waitFor();
    await expect(hero.getByRole('button').count()).resolves.toBe(0);
    await expect(hero.getByRole('link', { name: 'Manage', exact: true }).getAttribute('href')).resolves.toBe(
      '/manage?tab=uploaded',
    );

    await page.goto('/datastore');
    await page.getByLabel('Search datasets').fill(title);
    await card(page, title).waitFor();
    await expect(card(page, title).getByText('Environment').count()).resolves.toBe(1);
    // Owners see no price and no action on their own items, but where to manage them.
    await expect(card(page, title).getByLabel('Price', { exact: true }).count()).resolves.toBe(0);
    await expect(card(page, title).getByRole('button').count()).resolves.toBe(0);
    await card(page, title).getByText('You own this', { exact: true }).waitFor();
    await screenshot(page, 'datastore-owned-card', 'desktop');
    await card(page, title).getByRole('link', { name: 'Manage', exact: true }).click();
    await page.waitForURL('**/manage?tab=uploaded');
    await page.getByRole('list', { name: 'Uploaded data' }).getByRole('link', { name: title }).waitFor();

    await page.goto('/manage');
    const accessible = page.getByRole('list', { name: 'Accessible datasets' });
    await accessible.getByRole('link', { name: title }).waitFor();
    // The owner's access comes with the dataset: marked as theirs, with nothing to remove.
    const ownRow = accessible.getByRole('listitem').filter({ hasText: title });
    await ownRow.getByText('Yours', { exact: true }).waitFor();
    await expect(ownRow.getByRole('button', { name: `Remove ${title}` }).count()).resolves.toBe(0);
    await page.getByText('No active connectors yet.').waitFor();
    await page.getByRole('tab', { name: 'Uploaded Data' }).click();
    const uploaded = page.getByRole('list', { name: 'Uploaded data' });
    await expect(uploaded.getByRole('link', { name: title }).getAttribute('href')).resolves.toBe(
      `/dataset_profile/${datasetId}`,
    );
    // Edit opens the owner's edit dialog; Cancel leaves the dataset as it was.
    await uploaded.getByRole('button', { name: `Edit ${title}` }).click();
    const editDialog = page.getByRole('dialog', { name: 'Edit dataset' });
    await editDialog.waitFor();
    await editDialog.getByRole('button', { name: 'Cancel' }).click();
    await editDialog.waitFor({ state: 'detached' });

    await page.getByRole('tab', { name: 'Stream Data' }).click();
    await page.getByRole('heading', { name: 'Stream your data to Power BI' }).waitFor();
    await expect(page.locator('ol > li').count()).resolves.toBeGreaterThanOrEqual(3);
    const keyBox = page.getByLabel('API key', { exact: true });
    if ((await keyBox.innerText()).startsWith('No API key yet')) {
      await page.getByRole('button', { name: 'Generate New Key' }).click();
      await expectNotice(page, 'API Key generated!');
    }
    await eventually(
      async () => !(await keyBox.innerText()).startsWith('No API key'),
      'an API key to be shown',
    );
    const firstKey = (await keyBox.innerText()).trim();
    const jsonLink = await streamLink(page, `${title} JSON link`);
    const csvLink = await streamLink(page, `${title} CSV link`);
    // Links go by the table's readable name, shown beside them.
    const tableName = await page.getByLabel(`Table name of ${title}`, { exact: true }).innerText();
    expect(jsonLink).toContain(`/api/stream/data/${tableName}?api_key=${firstKey}`);
    expect(csvLink).toContain('format=csv');
    const parquetLink = await streamLink(page, `${title} Parquet link`);
    expect(parquetLink).toContain(`/api/stream/data/${tableName}?api_key=${firstKey}&format=parquet`);
    expect(await streamLink(page, 'general stream link')).toContain(`/api/stream/data?api_key=${firstKey}`);
    const odataLink = await streamLink(page, 'OData feed link');
    expect(odataLink).toMatch(/\/api\/odata$/);
    await screenshot(page, 'manage-stream', 'desktop');

    // The full guide is one click from the tab, with this site's address in its examples.
    const guideLink = page.getByRole('link', { name: /^Full guide: Power BI incremental refresh/ });
    const guide = await context.newPage();
    await guide.goto(new URL((await guideLink.getAttribute('href')) as string, page.url()).href);
    await guide.getByRole('heading', { name: 'Incremental refresh (RangeStart / RangeEnd)' }).waitFor();
    await guide.getByRole('heading', { name: 'Tableau', exact: true }).waitFor();
    const origin = new URL(page.url()).origin;
    await guide.getByText(`${origin}/api/odata/$metadata`, { exact: true }).first().waitFor();
    await expect(guide.getByText('<host>').count()).resolves.toBe(0);
    await screenshot(guide, 'streaming-guide', 'desktop');
    await guide.close();

    // The links work outside the browser, as Power BI would call them: no cookie, only the key.
    const json = (await (await fetch(jsonLink)).json()) as Array<Record<string, unknown>>;
    expect(json).toHaveLength(ROWS);
    expect(json[0]).toMatchObject({ reading_id: 1, harbour: 'Harbour 1' });
    const csv = await (await fetch(csvLink)).text();
    expect(csv.split('\n')[0]).toBe('reading_id,harbour,water_level_cm,measured_on');
    // A Parquet file opens and closes with its magic bytes (the values are checked in test/stream).
    const parquet = await fetch(parquetLink);
    expect(parquet.headers.get('content-type')).toBe('application/vnd.apache.parquet');
    const parquetBytes = Buffer.from(await parquet.arrayBuffer());
    expect([parquetBytes.subarray(0, 4).toString(), parquetBytes.subarray(-4).toString()]).toEqual([
      'PAR1',
      'PAR1',
    ]);
    expect(csv.trim().split('\n')).toHaveLength(ROWS + 1);
    // The OData feed lists the dataset for the key, sent as BI tools send their stored key.
    const feed = (await (await fetch(odataLink, { headers: { 'X-API-Key': firstKey } })).json()) as {
      value: Array<{ title: string }>;
    };
    expect(feed.value.map((entitySet) => entitySet.title)).toContain(title);

    // Replacing the key breaks every link: it asks first, and Cancel keeps the key.
    await page.getByRole('button', { name: 'Generate New Key' }).click();
    const confirm = page.getByRole('dialog', { name: 'Generate a new API key?' });
    await confirm.getByText('Your current key stops working at once').waitFor();
    await screenshot(page, 'confirm-new-key', 'desktop');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await expect(keyBox.innerText()).resolves.toBe(firstKey);
    expect((await fetch(jsonLink)).status).toBe(200);
    await page.getByRole('button', { name: 'Generate New Key' }).click();
    await confirm.getByRole('button', { name: 'Generate New Key' }).click();
    await expectNotice(page, 'API Key generated!');
    await eventually(async () => (await keyBox.innerText()).trim() !== firstKey, 'a new API key');
    const secondKey = (await keyBox.innerText()).trim();
    expect((await fetch(jsonLink)).status).toBe(401);
    const newLink = await streamLink(page, `${title} JSON link`);
    expect(newLink).toContain(`api_key=${secondKey}`);
    expect((await fetch(newLink)).status).toBe(200);
    expect(errors).toEqual([]);
    await context.close();
  });

  describe.each<ViewportName>(['desktop', 'phone'])('at %s width', (viewport) => {
    it('renders both upload tabs and the manage tabs', async () => {
      const { context, page, errors } = await openPage(browser, viewport);
      const email = uniqueEmail(`empty-${viewport}`);
      await registerAndVerify(page, 'Empty Account', email, PASSWORD);
      await logIn(page, email, PASSWORD);

      await page.getByText('No active connectors yet.').waitFor();
      await page.getByText('No accessible datasets yet.').waitFor();
      await screenshot(page, 'manage-active-empty', viewport);
      await page.getByRole('tab', { name: 'Uploaded Data' }).click();
      await page.getByText('No datasets found.').waitFor();
      await page.getByRole('tab', { name: 'Stream Data' }).click();
      await page.getByText('No datasets available yet.').waitFor();
      await screenshot(page, 'manage-stream-empty', viewport);

      await page.goto('/upload');
      await page.getByLabel('Title').waitFor();
      await screenshot(page, 'upload-dataset-form', viewport);
      await page.getByRole('tab', { name: 'Upload Connector' }).click();
      await page.getByLabel('Connector spec (JSON)').waitFor();
      await screenshot(page, 'upload-connector-form', viewport);
      expect(errors).toEqual([]);
      await context.close();

      const visitor = await openPage(browser, viewport);
      await visitor.page.goto('/manage');
      await visitor.page
        .getByText('Please log in to manage your datasets, connectors and streams.')
        .waitFor();
      await screenshot(visitor.page, 'manage-visitor', viewport);
      await visitor.page.goto('/upload');
      // To log in, and back to /upload afterwards.
      await visitor.page.waitForURL('**/login?next=%2Fupload');
      await visitor.context.close();
    });
  });
});
