import type { Browser } from 'playwright-core';
import { generate } from 'otplib';
import { createVerifiedAccount, expectSnackbar, freshEmail, logInThroughForm } from './support/accounts';
import { baseUrl, launchBrowser, openPage } from './support/browser';

const PASSWORD = 'journey-password-2026';

/** The newest link mailed to the address that contains `part` (dev outbox). */
async function mailedLink(email: string, part: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${baseUrl()}/api/dev/outbox?email=${encodeURIComponent(email)}`);
    const messages = response.ok ? ((await response.json()) as Array<{ links: string[] }>) : [];
    const link = messages.flatMap((message) => message.links).find((url) => url.includes(part));
    if (link) return link;
    await new Promise((retry) => setTimeout(retry, 200));
  }
  throw new Error(`No mail with ${part} reached the outbox for ${email}`);
}

describe('forgot password and two-factor sign-in in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('resets a forgotten password from the mailed link and logs in with the new one', async () => {
    const { context, page, errors } = await openPage(browser);
    const email = freshEmail('forgot');
    await createVerifiedAccount('Forgetful Tester', email, PASSWORD);

    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/forgot-password');
    // The login form (with its own Email field) stays on screen while the new page's code loads.
    await page.getByRole('heading', { name: 'Forgot password', level: 1 }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page
      .getByText('If an account exists for that address, we have sent it a link', { exact: false })
      .waitFor();

    const link = new URL(await mailedLink(email, '/reset-password?token='));
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByLabel(/^New password/).fill('a-brand-new-password');
    await page.getByLabel('Repeat new password').fill('a-brand-new-password');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expectSnackbar(page, 'Your password has been reset. Please log in with the new password.');
    await page.waitForURL('**/login');

    await logInThroughForm(page, email, 'a-brand-new-password');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('turns on two-factor sign-in with the QR code’s secret, then logs in with a code', async () => {
    const { context, page, errors } = await openPage(browser);
    const email = freshEmail('two-factor');
    await createVerifiedAccount('Careful Tester', email, PASSWORD);
    await logInThroughForm(page, email, PASSWORD);

    await page.goto('/account');
    await page.getByRole('button', { name: 'Enable 2FA' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    const secret = (await page.getByLabel('Secret key').textContent())!.trim();
    const timeStep = Math.floor(Date.now() / 30_000);
    await page.getByLabel('Authentication code').fill(await generate({ secret, epoch: timeStep * 30 }));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expectSnackbar(page, 'Two-factor sign-in is on.');
    await expect(
      page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').count(),
    ).resolves.toBe(10);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Disable 2FA' }).waitFor();
    await page.getByRole('list', { name: 'Active sessions' }).getByText('This session').waitFor();

    // A new browser: the password alone is not enough any more.
    const second = await openPage(browser);
    await second.page.goto('/login');
    await second.page.getByLabel('Email').fill(email);
    await second.page.getByLabel('Password').fill(PASSWORD);
    await second.page.getByRole('button', { name: 'Login' }).click();
    await second.page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    await second.page
      .getByLabel('Authentication code')
      .fill(await generate({ secret, epoch: (timeStep + 1) * 30 }));
    await second.page.getByRole('button', { name: 'Verify' }).click();
    await expectSnackbar(second.page, 'Login successful');
    await second.page.waitForURL('**/manage');

    // The first browser now lists the second session and can sign it out.
    await page.reload();
    await page
      .getByRole('list', { name: 'Active sessions' })
      .getByRole('button', { name: /^Sign out / })
      .click();
    await expectSnackbar(page, 'Session signed out');
    expect(errors).toEqual([]);
    expect(second.errors).toEqual([]);
    await second.context.close();
    await context.close();
  });
});
