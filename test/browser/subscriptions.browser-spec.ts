import type { Browser, Page } from 'playwright-core';
import { baseUrl, launchBrowser, openPage, screenshot, ViewportName } from './support/browser';
import { apiAs, expectNotice, logIn, registerAndVerify, uniqueEmail } from './support/journey';

const PASSWORD = 'browser-subscriber-2026';

async function signedIn(browser: Browser, viewport: ViewportName, name: string) {
  const opened = await openPage(browser, viewport);
  const email = uniqueEmail(name.toLowerCase().replace(/\W+/g, '-'));
  await registerAndVerify(opened.page, name, email, PASSWORD);
  await logIn(opened.page, email, PASSWORD);
  return opened;
}

/** A paid upload as the page's user; its id. */
async function uploadPaid(page: Page, title: string): Promise<string> {
  const response = await page.request.post(`${baseUrl()}/api/assets/upload-csv`, {
    headers: { origin: baseUrl() },
    multipart: {
      title,
      price: '9.99',
      file: {
        name: 'tides.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('port,height\nBrest,6.1\nCadiz,2.3\n'),
      },
    },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** The page is no wider than the screen: nothing runs off at phone width. */
async function fitsTheScreen(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

describe('subscriptions in a browser (test payment provider)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it.each(['desktop', 'phone'] as ViewportName[])(
    'the seller sets a monthly price with a trial; a buyer subscribes and cancels from Manage (%s)',
    async (viewport) => {
      const title = `Tide tables ${viewport} ${Date.now()}`;
      const seller = await signedIn(browser, viewport, 'Sam Seller');
      const id = await uploadPaid(seller.page, title);
      await seller.page.goto(`/dataset_profile/${id}`);
      await seller.page.getByRole('button', { name: 'Edit', exact: true }).click();
      const edit = seller.page.getByRole('dialog', { name: 'Edit dataset' });
      await edit.getByLabel('Billing').click();
      await seller.page.getByRole('option', { name: 'Monthly' }).click();
      await edit.getByLabel('Free trial (days)').fill('91');
      await edit.getByText('Whole days from 0 to 90').waitFor();
      await expect(edit.getByRole('button', { name: 'Save' }).isDisabled()).resolves.toBe(true);
      await edit.getByLabel('Free trial (days)').fill('14');
      await screenshot(seller.page, 'subscription-price-form', viewport);
      await edit.getByRole('button', { name: 'Save' }).click();
      await expectNotice(seller.page, 'Dataset saved.');
      const saved = await apiAs<{ billing_interval: string; trial_days: number }>(
        seller.page,
        'GET',
        `assets/${id}`,
      );
      expect(saved).toMatchObject({ billing_interval: 'month', trial_days: 14 });
      expect(seller.errors).toEqual([]);
      await seller.context.close();

      const buyer = await signedIn(browser, viewport, 'Bea Buyer');
      await buyer.page.goto(`/dataset_profile/${id}`);
      await buyer.page.getByRole('button', { name: 'Buy', exact: true }).click();
      const dialog = buyer.page.getByRole('dialog', { name: `Subscribe to ${title}` });
      await dialog
        .getByText(
          'You get full access while subscribed, for $9.99 / month. The first 14 days are free. Cancel any time under Manage Data.',
        )
        .waitFor();
      await dialog.getByRole('button', { name: 'Subscribe for $9.99 / month' }).click();
      await buyer.page.getByRole('heading', { name: 'Data', exact: true }).waitFor();

      await buyer.page.goto('/manage');
      const section = buyer.page.getByRole('region', { name: 'Subscriptions' });
      const row = section.getByRole('listitem').filter({ hasText: title });
      await row.getByText(/^\$9\.99 \/ month · Free trial until \d{1,2} \w{3} \d{4}$/).waitFor();
      expect(await fitsTheScreen(buyer.page)).toBe(true);
      await screenshot(buyer.page, 'subscriptions-section', viewport);

      await row.getByRole('button', { name: `Cancel subscription to ${title}` }).click();
      await buyer.page
        .getByRole('dialog', { name: 'Cancel subscription?' })
        .getByRole('button', { name: 'Cancel subscription' })
        .click();
      await row.getByText(/Cancelled: access until \d{1,2} \w{3} \d{4}$/).waitFor();
      await expect(row.getByRole('button', { name: /^Cancel subscription/ }).count()).resolves.toBe(0);
      expect(await fitsTheScreen(buyer.page)).toBe(true);
      expect(buyer.errors).toEqual([]);
      await buyer.context.close();
    },
  );
});
