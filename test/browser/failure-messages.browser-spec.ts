import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage } from './support/browser';
import { card, DEMO_USER, expectNotice, logIn } from './support/journey';

/** Every snackbar text on the page, to show that a failure says one thing only. */
async function notices(page: Page): Promise<string[]> {
  return (await page.locator('.MuiSnackbar-root .MuiAlert-root').allInnerTexts()).map((text) => text.trim());
}

describe('failed connector calls say one thing: the server’s reason or the screen’s own text', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it("shows 'Activation failed.' for a server failure, and the server's reason for a refusal", async () => {
    const { context, page, errors } = await openPage(browser);
    await logIn(page, DEMO_USER.email, DEMO_USER.password);
    await page.route('**/api/connectors/activate', (route) =>
      route.fulfill({ status: 500, contentType: 'text/plain', body: 'Internal Server Error' }),
    );
    await page.goto('/datastore');
    const frankfurter = card(page, 'Exchange Rates (Frankfurter)');
    await frankfurter.getByRole('button', { name: 'Connect Exchange Rates (Frankfurter)' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Connect' }).click();
    await expectNotice(page, 'Activation failed.');
    expect(await page.locator('body').innerText()).not.toContain('Internal Server Error');

    await page.unroute('**/api/connectors/activate');
    await page.route('**/api/connectors/activate', (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({
          error: 'Base currency is required',
          message: 'Base currency is required',
          statusCode: 400,
        }),
      }),
    );
    await page.getByRole('dialog').getByRole('button', { name: 'Connect' }).click();
    await expectNotice(page, 'Base currency is required');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows one message when Save fails on the setup screen, never the status line', async () => {
    const { context, page, errors } = await openPage(browser);
    await logIn(page, DEMO_USER.email, DEMO_USER.password);
    await page.route('**/api/connectors/activate', (route) =>
      route.fulfill({ status: 500, contentType: 'text/plain', body: 'Internal Server Error' }),
    );
    await page.goto('/datastore');
    await card(page, 'Exchange Rates (Frankfurter)')
      .getByRole('link', { name: 'Exchange Rates (Frankfurter)' })
      .click();
    await page.waitForURL(/\/connector_profile\//);
    const connectorId = page.url().split('/').pop() as string;
    await page.goto(`/connector-setup/${connectorId}`);
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expectNotice(page, 'Activation failed during save');
    // Snackbars queue one at a time: a second message would show once the first is closed.
    await page.waitForTimeout(1000);
    expect(await notices(page)).toEqual([]);
    const text = await page.locator('main').innerText();
    expect(text).not.toContain('Internal Server Error');
    expect(text).not.toContain('Internal server error');
    expect(errors).toEqual([]);
    await context.close();
  });
});
