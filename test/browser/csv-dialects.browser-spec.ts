import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import type { Browser } from 'playwright-core';
import { launchBrowser, openPage, screenshot } from './support/browser';
import { DEMO_USER, expectNotice, logIn } from './support/journey';

/** A German export: semicolons, Latin-1, decimal commas with dot thousands, day-first dates. */
const PRICES = 'Artikel;Preis;Datum;Menge\nKäse;1.234,50;31.12.2024;7\nBrötchen;0,45;01.02.2025;12\n';

describe('uploading CSV files written in other dialects in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('shows how a Latin-1 semicolon decimal-comma file is read, takes a changed column type and stores it', async () => {
    const { page, errors } = await openPage(browser);
    await logIn(page, DEMO_USER.email, DEMO_USER.password);
    await page.goto('/upload');
    const title = `Preise ${Date.now()}`;
    await page.getByLabel('Title').fill(title);
    await page
      .getByLabel('CSV file')
      .setInputFiles({ name: 'preise.csv', mimeType: 'text/csv', buffer: iconv.encode(PRICES, 'latin1') });

    const preview = page.getByRole('region', { name: 'File preview' });
    await preview.waitFor();
    const shown = async (label: string) =>
      preview.getByLabel(label, { exact: true }).evaluate((select) => {
        const element = select as HTMLSelectElement;
        return element.options[element.selectedIndex].text;
      });
    await expect(shown('Delimiter')).resolves.toBe('Semicolon (;)');
    await expect(shown('Encoding')).resolves.toBe('Windows-1252 / Latin-1');
    await expect(shown('Decimal mark')).resolves.toBe('Comma (1,5)');
    await expect(shown('Thousands separator')).resolves.toBe('Dot (1.000)');
    await expect(shown('Date order')).resolves.toBe('Day first (31/12/2024)');
    await expect(preview.getByLabel('Type of Preis').inputValue()).resolves.toBe('numeric');
    await expect(preview.getByLabel('Type of Datum').inputValue()).resolves.toBe('date');
    await preview.getByRole('cell', { name: 'Käse' }).waitFor();
    await screenshot(page, 'upload-csv-preview', 'desktop');

    // The quantity is a code here: kept as text, as the user chooses.
    await preview.getByLabel('Type of Menge').selectOption('text');
    await page.getByRole('button', { name: 'Upload Dataset' }).click();
    await page.waitForURL(/\/dataset_profile\/[0-9a-f-]{36}$/, { timeout: 60_000 });
    await expectNotice(page, 'Dataset uploaded.');
    const id = page.url().split('/').pop() as string;
    const stored = await page.evaluate(async (datasetId) => {
      const detail = await (await fetch(`/api/assets/${datasetId}`)).json();
      const data = await (await fetch(`/api/assets/${datasetId}/data`)).json();
      return { types: detail.columns.map((column: { type: string }) => column.type), rows: data.rows };
    }, id);
    expect(stored).toEqual({
      types: ['text', 'numeric', 'date', 'text'],
      rows: [
        { artikel: 'Käse', preis: 1234.5, datum: '2024-12-31', menge: '7' },
        { artikel: 'Brötchen', preis: 0.45, datum: '2025-02-01', menge: '12' },
      ],
    });
    expect(errors).toEqual([]);
  });

  it('uploads the named sheet of an Excel workbook with the types of its cells', async () => {
    const book = new ExcelJS.Workbook();
    book.addWorksheet('Cover').addRows([['about'], ['quarterly figures']]);
    const figures = book.addWorksheet('Figures');
    figures.addRows([
      ['Quarter', 'Revenue', 'Closed on'],
      ['Q1', 1520.75, new Date(Date.UTC(2025, 2, 31))],
      ['Q2', 1830, new Date(Date.UTC(2025, 5, 30))],
    ]);
    const { page, errors } = await openPage(browser);
    await logIn(page, DEMO_USER.email, DEMO_USER.password);
    await page.goto('/upload');
    await page.getByLabel('Title').fill(`Quarterly figures ${Date.now()}`);
    await page.getByLabel('CSV file').setInputFiles({
      name: 'figures.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: Buffer.from(await book.xlsx.writeBuffer()),
    });
    await page.getByLabel('Sheet').fill('Figures');
    await page.getByRole('button', { name: 'Upload Dataset' }).click();
    await page.waitForURL(/\/dataset_profile\/[0-9a-f-]{36}$/, { timeout: 60_000 });
    await expectNotice(page, 'Dataset uploaded.');
    const id = page.url().split('/').pop() as string;
    const rows = await page.evaluate(
      async (datasetId) => (await (await fetch(`/api/assets/${datasetId}/data`)).json()).rows,
      id,
    );
    expect(rows).toEqual([
      { quarter: 'Q1', revenue: 1520.75, closed_on: '2025-03-31' },
      { quarter: 'Q2', revenue: 1830, closed_on: '2025-06-30' },
    ]);
    expect(errors).toEqual([]);
  });
});
