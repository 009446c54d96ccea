import type { Browser } from 'playwright-core';
import { createVerifiedAccount, expectSnackbar, freshEmail, logInThroughForm } from './support/accounts';
import { baseUrl, launchBrowser, openPage, screenshot, ViewportName } from './support/browser';

describe('named API tokens on the Account screen', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it.each<ViewportName>(['desktop', 'phone'])(
    'creates a token shown once that opens the stream, then revokes it (%s)',
    async (viewport) => {
      const email = freshEmail('tokens');
      await createVerifiedAccount('Token User', email, 'token-password-2026');
      const { context, page, errors } = await openPage(browser, viewport);
      await logInThroughForm(page, email, 'token-password-2026');
      await page.goto('/account');

      const section = page.getByRole('region', { name: 'API tokens' });
      await section.getByText('No tokens yet.').waitFor();
      await section.getByRole('button', { name: 'New token' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Name').fill('Power BI');
      await dialog.getByRole('button', { name: 'Create token' }).click();
      await dialog.getByText('Copy it now: it is not stored and cannot be shown again.').waitFor();
      const token = (await dialog.locator('code').innerText()).trim();
      expect(token).toMatch(/^dmt_/);
      await screenshot(page, 'api-token-created', viewport);

      const stream = await fetch(`${baseUrl()}/api/stream/data?api_key=${encodeURIComponent(token)}`);
      expect(stream.status).toBe(200);

      await dialog.getByRole('button', { name: 'Done' }).click();
      const list = section.getByRole('list', { name: 'API tokens' });
      await list.getByText('Power BI').waitFor();
      expect(await list.innerText()).not.toContain(token);
      await screenshot(page, 'api-tokens', viewport);

      await list.getByRole('button', { name: 'Revoke Power BI' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
      await expectSnackbar(page, 'Token “Power BI” revoked.');
      await section.getByText('No tokens yet.').waitFor();
      const refused = await fetch(`${baseUrl()}/api/stream/data?api_key=${encodeURIComponent(token)}`);
      expect(refused.status).toBe(401);
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
