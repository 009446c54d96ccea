import type { Browser } from 'playwright-core';
import { launchBrowser, openPage, screenshot } from './support/browser';
import { apiAs, card, logIn, registerAndVerify, uniqueEmail } from './support/journey';

const PAID = 'Global Stock Prices 2024';
const PASSWORD = 'browser-journey-2026';
const CHECKOUT_PAGE = 'https://checkout.stripe.com/c/pay/cs_test_browser_journey';

/**
 * The screens of a Stripe purchase. The app under test runs the test provider, so the browser is
 * shown the answers the API gives with Stripe (that flow itself has its own API tests) and
 * Stripe's page is a stand-in: no request leaves the machine.
 */
describe('Buy with Stripe Checkout in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('sends the buyer to Stripe and, back on the dataset page, waits for the confirmation', async () => {
    const { context, page, errors } = await openPage(browser);
    const email = uniqueEmail('stripe-buyer');
    await registerAndVerify(page, 'Stripe Buyer', email, PASSWORD);
    await logIn(page, email, PASSWORD);
    await page.route('**/api/access/payments', (route) =>
      route.fulfill({ json: { provider: 'stripe', test_mode: true } }),
    );
    await page.route('**/api/access/grant', (route) =>
      route.fulfill({ json: { granted: false, assetId: 'any', checkout_url: CHECKOUT_PAGE, purchase: {} } }),
    );
    await page.route('https://checkout.stripe.com/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>Stripe Checkout</title><h1>Pay</h1>' }),
    );

    // Found by its title: the journeys before this one may have pushed it off the first page.
    await page.goto(`/datastore?q=${encodeURIComponent(PAID)}`);
    await card(page, PAID).getByRole('link').click();
    await page.getByRole('heading', { name: 'Sample Data Preview' }).waitFor();
    const datasetPage = new URL(page.url()).pathname;
    const assetId = datasetPage.split('/').pop()!;

    await page.getByRole('button', { name: 'Buy', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog
      .getByText(
        'You pay on Stripe’s secure checkout page; access follows as soon as Stripe confirms the payment. ' +
          'Stripe test mode: use a test card, no money moves.',
      )
      .waitFor();
    await expect(dialog.getByText('Test mode: the purchase is approved at once').count()).resolves.toBe(0);
    await screenshot(page, 'buy-dialog-stripe', 'desktop');
    await dialog.getByRole('button', { name: 'Buy for $19.99' }).click();
    await page.waitForURL(CHECKOUT_PAGE);

    // Stripe sends the buyer back before its signed confirmation may have arrived.
    await page.goto(`${datasetPage}?checkout=success`);
    await page
      .getByText('Thank you! Your payment is being confirmed; full access appears here in a moment.')
      .waitFor();
    await page.getByRole('heading', { name: 'Sample Data Preview' }).waitFor();
    // The confirmation arrives (in this app, the test provider grants): the page shows it unreloaded.
    await apiAs(page, 'POST', 'access/grant', { assetId });
    await page.getByText('Payment confirmed: you now have full access.').waitFor({ timeout: 15_000 });
    await page.getByRole('heading', { name: 'Data', exact: true }).waitFor();

    await page.goto(`${datasetPage}?checkout=cancelled`);
    await page.getByText('Checkout cancelled: you have not been charged.').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
