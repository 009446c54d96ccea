/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { expectEventually } from './support/accounts';
import { launchBrowser, openPage, screenshot, ViewportName } from './support/browser';
import {
  apiAs,
  card,
  expectNotice,
  gridRowTexts,
  logIn,
  registerAndVerify,
  uniqueEmail,
} from './support/journey';

const FREE = 'Exoplanet Discoveries';
const PAID = 'Global Stock Prices 2024';
const PASSWORD = 'browser-journey-2026';

/** The catalogue's button for a card: its accessible name is "<action> <title>". */
const cardButton = (page: Page, title: string) => card(page, title).getByRole('button');

describe('DataStore and detail screens in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('shows a visitor prices, badges, filters and empty results, and sends actions to /login', async () => {
    const { context, page, errors } = await openPage(browser);
    await page.goto('/datastore');
    await card(page, PAID).waitFor();

    await expect(card(page, PAID).getByLabel('Price', { exact: true }).innerText()).resolves.toBe('$19.99');
    await expect(card(page, FREE).getByLabel('Price', { exact: true }).innerText()).resolves.toBe('Free');
    await expect(cardButton(page, PAID).innerText()).resolves.toBe('Buy');
    await expect(cardButton(page, FREE).innerText()).resolves.toBe('Get');
    const connector = card(page, 'Exchange Rates (Frankfurter)');
    await expect(connector.getByText('API', { exact: true }).count()).resolves.toBe(1);
    await expect(connector.getByLabel('Price', { exact: true }).count()).resolves.toBe(0);
    await expect(connector.getByRole('button').innerText()).resolves.toBe('Connect');
    // A private dataset of another user is not listed.
    await expect(card(page, 'Clinical Trial Enrolment Tracker').count()).resolves.toBe(0);
    expect(await card(page, FREE).getByRole('link').getAttribute('href')).toMatch(
      /^\/dataset_profile\/[0-9a-f-]{36}$/,
    );
    expect(await connector.getByRole('link').getAttribute('href')).toMatch(
      /^\/connector_profile\/[0-9a-f-]{36}$/,
    );
    await expect(page.getByRole('link', { name: '+ Add Dataset' }).getAttribute('href')).resolves.toBe(
      '/upload',
    );

    // All three type toggles start pressed; turning datasets off leaves connectors only.
    for (const name of ['Datasets', 'Connectors', 'Apps']) {
      await expect(
        page.getByRole('button', { name, exact: true }).getAttribute('aria-pressed'),
      ).resolves.toBe('true');
    }
    await page.getByRole('button', { name: 'Datasets', exact: true }).click();
    await card(page, PAID).waitFor({ state: 'detached' });
    await expect(connector.count()).resolves.toBe(1);
    await page.getByRole('button', { name: 'Datasets', exact: true }).click();
    await card(page, PAID).waitFor();

    // Category multi-select: Science alone, then Finance added (the menu still lists it), then All.
    await page.getByRole('combobox', { name: 'Category' }).click();
    await page.getByRole('option', { name: 'Science' }).click();
    await page.keyboard.press('Escape');
    await card(page, PAID).waitFor({ state: 'detached' });
    await expect(card(page, FREE).count()).resolves.toBe(1);
    await page.getByRole('combobox', { name: 'Category' }).click();
    await page.getByRole('option', { name: 'Finance' }).click();
    await page.keyboard.press('Escape');
    await card(page, PAID).waitFor();
    await expect(card(page, FREE).count()).resolves.toBe(1);
    await page.getByRole('combobox', { name: 'Category' }).click();
    await page.getByRole('option', { name: 'All' }).click();
    await page.keyboard.press('Escape');
    await card(page, PAID).waitFor();

    await page.getByLabel('Search datasets').fill('exoplanet');
    await card(page, PAID).waitFor({ state: 'detached' });
    await expect(page.locator('article').count()).resolves.toBe(1);
    await page.getByLabel('Search datasets').fill('no such title anywhere');
    await page.getByText('No results found.').waitFor();
    await screenshot(page, 'datastore-empty', 'desktop');

    await page.getByLabel('Search datasets').fill('');
    await cardButton(page, FREE).click();
    // To log in, and back to the DataStore afterwards.
    await page.waitForURL(
      (url) => url.pathname === '/login' && !!url.searchParams.get('next')?.startsWith('/datastore'),
    );
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lets a new user register, get a free dataset, preview and buy a paid one, then remove it', async () => {
    const { context, page, errors } = await openPage(browser);
    const email = uniqueEmail('buyer');
    await registerAndVerify(page, 'Browser Buyer', email, PASSWORD);
    await logIn(page, email, PASSWORD);

    await page.goto('/datastore');
    await cardButton(page, FREE).click();
    await expectNotice(page, 'Access granted!');
    await expect(cardButton(page, FREE).innerText()).resolves.toBe('Remove');

    // The free dataset now opens with every row, paged by the server.
    await card(page, FREE).getByRole('link').click();
    await page.waitForURL(/\/dataset_profile\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { name: FREE, level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Data', exact: true }).waitFor();
    const fullGrid = page.getByRole('grid', { name: 'Dataset rows' });
    const firstRow = (await gridRowTexts(fullGrid))[0];
    expect(firstRow).toContain('Kepler-2798 b');
    // A year column reads 2013, not 2,013.
    expect(firstRow).toMatch(/\b2013\b/);
    await page.getByText('1–25 of 80').waitFor();
    await expect(page.getByRole('button', { name: 'Remove' }).count()).resolves.toBe(1);
    await screenshot(page, 'dataset-full-data', 'desktop');

    // The paid dataset, without access: its sample, its price and Buy.
    await page.getByRole('link', { name: 'Back to DataStore' }).click();
    await page.waitForURL('**/datastore');
    await card(page, PAID).getByRole('link').click();
    await page.getByRole('heading', { name: 'Sample Data Preview' }).waitFor();
    await page.getByText('The full dataset needs access').waitFor();
    const sample = page.getByRole('grid', { name: 'Sample data' });
    expect((await gridRowTexts(sample))[0]).toContain('ACME');
    const facts = (await page.locator('main').textContent()) ?? '';
    for (const text of ['Subscribers', 'Category', 'Finance', 'Source', 'Author', 'Description', '$19.99']) {
      expect(facts).toContain(text);
    }
    await screenshot(page, 'dataset-sample', 'desktop');

    await page.getByRole('button', { name: 'Buy', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Test mode: the purchase is approved at once and no card is charged.').waitFor();
    await dialog.getByRole('button', { name: 'Buy for $19.99' }).click();
    await expectNotice(page, 'Access granted!');
    await page.getByRole('heading', { name: 'Data', exact: true }).waitFor();
    const boughtRows = await gridRowTexts(page.getByRole('grid', { name: 'Dataset rows' }));
    expect(boughtRows[0]).toContain('ACME');
    const held = await apiAs<string[]>(page, 'GET', 'access/my');
    expect(held).toHaveLength(2);

    // A paid dataset would have to be bought again: Remove asks first, and Cancel keeps it.
    await page.getByRole('button', { name: 'Remove', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove this dataset?' });
    await confirm.getByText('getting it back from its page costs nothing', { exact: false }).waitFor();
    await screenshot(page, 'confirm-remove-paid', 'desktop');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await expect(apiAs<string[]>(page, 'GET', 'access/my')).resolves.toHaveLength(2);
    await page.getByRole('button', { name: 'Remove', exact: true }).click();
    await confirm.getByRole('button', { name: 'Remove access' }).click();
    await expectNotice(page, 'Access removed.');
    await page.getByRole('heading', { name: 'Sample Data Preview' }).waitFor();
    await expect(apiAs<string[]>(page, 'GET', 'access/my')).resolves.toHaveLength(1);

    // Bought once: the page offers it back for nothing, with no price and no Buy, on the card too.
    const getAgain = page.getByRole('button', { name: 'Get again — free', exact: true });
    await getAgain.waitFor();
    await expect(page.getByRole('button', { name: 'Buy', exact: true }).count()).resolves.toBe(0);
    const factsAfter = (await page.locator('main').textContent()) ?? '';
    expect(factsAfter).toContain('Bought — free for you');
    expect(factsAfter).not.toContain('$19.99');
    await screenshot(page, 'dataset-get-again', 'desktop');
    await page.getByRole('link', { name: 'Back to DataStore' }).click();
    // The catalogue shows its cached page at once and then what the server says now.
    await expectEventually(() => cardButton(page, PAID).innerText(), 'Get again — free');
    await expect(card(page, PAID).getByLabel('Price', { exact: true }).innerText()).resolves.toBe(
      'Bought — free for you',
    );
    await card(page, PAID).getByRole('link').click();
    await getAgain.click();
    await expectNotice(page, 'Access granted!');
    await page.getByRole('heading', { name: 'Data', exact: true }).waitFor();
    const orders = await apiAs<{ orders: unknown[] }>(page, 'GET', 'access/purchases');
    expect(orders.orders).toHaveLength(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("says 'Failed to load data.' when the datasets cannot be loaded, rather than showing connectors alone", async () => {
    const { context, page } = await openPage(browser);
    await page.route('**/api/assets?**', (route) => route.fulfill({ status: 500, body: '{}' }));
    await page.goto('/datastore');
    await page.getByText('Failed to load data.').waitFor();
    await expect(page.locator('article').count()).resolves.toBe(0);
    await context.close();
  });

  it('keeps a link followed while a typed search is settling: the search does not take the user back', async () => {
    const { context, page, errors } = await openPage(browser);
    await page.goto('/datastore');
    await page.locator('article').first().waitFor();
    // The next page's code arrives late, as on a slow network: the DataStore stays on screen
    // meanwhile, long past the search box's pause.
    await page.route('**/assets/BlogPage-*.js', async (route) => {
      await new Promise((wait) => setTimeout(wait, 1_500));
      await route.continue();
    });
    await page.getByLabel('Search datasets').fill('Exoplanet');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Blog', exact: true }).click();
    await page.getByRole('main').getByRole('heading', { name: 'Blog', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/blog');
    expect(errors).toEqual([]);
    await context.close();
  });

  it("answers unknown and malformed profile addresses with 'Item not found' and 'Invalid connector ID.'", async () => {
    const { context, page } = await openPage(browser);
    await page.goto('/dataset_profile/00000000-0000-4000-8000-000000000000');
    await page.getByText('Item not found').waitFor();
    // No dead end: a visitor is told a private item needs a login (and where it leads back), and
    // there is a way back to the DataStore.
    await page.getByText('If this is your private item, log in to see it.').waitFor();
    await expect(page.getByRole('link', { name: 'Log in' }).getAttribute('href')).resolves.toBe(
      `/login?next=${encodeURIComponent('/dataset_profile/00000000-0000-4000-8000-000000000000')}`,
    );
    await screenshot(page, 'item-not-found', 'desktop');
    await page.getByRole('link', { name: 'Back to DataStore' }).click();
    await page.waitForURL('**/datastore');
    await page.goto('/connector_profile/not-an-id');
    await page.getByText('Invalid connector ID.').waitFor();
    await page.goto('/connector_profile/00000000-0000-4000-8000-000000000000');
    await page.getByText('Item not found').waitFor();
    await context.close();
  });

  describe.each<ViewportName>(['desktop', 'phone'])('at %s width', (viewport) => {
    it('renders the catalogue and both detail screens', async () => {
      const { context, page, errors } = await openPage(browser, viewport);
      await page.goto('/datastore');
      await card(page, PAID).waitFor();
      await page.waitForLoadState('networkidle');
      await screenshot(page, 'datastore-cards', viewport);

      await card(page, 'Exchange Rates (Frankfurter)')
        .getByRole('link', { name: 'Exchange Rates (Frankfurter)' })
        .click();
      await page.getByRole('heading', { name: 'Exchange Rates (Frankfurter)', level: 1 }).waitFor();
      await expect(page.locator('header').getByText('API', { exact: true }).count()).resolves.toBe(1);
      await expect(page.getByRole('button', { name: 'Connect', exact: true }).count()).resolves.toBe(1);
      await page.waitForLoadState('networkidle');
      await screenshot(page, 'connector-profile-visitor', viewport);

      await page.goto('/datastore');
      await card(page, PAID).waitFor();
      // A pressed type toggle stands out from an unpressed one: filled, not a pale tint.
      const toggle = page.getByRole('button', { name: 'Datasets', exact: true });
      const pressedBackground = await toggle.evaluate((element) => getComputedStyle(element).backgroundColor);
      await toggle.click();
      // The filter goes through the URL: the toggle shows it once the page has re-rendered.
      await expectEventually(() => toggle.getAttribute('aria-pressed'), 'false');
      const releasedBackground = await toggle.evaluate(
        (element) => getComputedStyle(element).backgroundColor,
      );
      expect(pressedBackground).not.toBe(releasedBackground);
      expect(pressedBackground).toMatch(/^rgb\(\d+, \d+, \d+\)$/);
      await toggle.click();
      await card(page, PAID).waitFor();
      // Cards without an image of their own get their category's colours, not one shared picture.
      const art = async (title: string) =>
        card(page, title)
          .locator('[data-category]')
          .evaluate((element) => getComputedStyle(element).backgroundImage);
      expect(await art(PAID)).not.toBe(await art(FREE));

      await card(page, PAID).getByRole('link').click();
      const sample = page.getByRole('grid', { name: 'Sample data' });
      await sample.locator('.MuiDataGrid-row').first().waitFor();
      // Dates show whole, even on a phone.
      const dateCell = sample.locator('.MuiDataGrid-row').first().locator('[data-field="date"]');
      await expect(dateCell.innerText()).resolves.toBe('2024-03-01');
      const clipped = await dateCell.evaluate((element) => element.scrollWidth > element.clientWidth + 1);
      expect(clipped).toBe(false);
      await screenshot(page, 'dataset-profile-visitor', viewport);
      expect(errors).toEqual([]);
      await context.close();
    });
  });
});
