import type { Browser, Page } from 'playwright-core';
import { createVerifiedAccount, expectSnackbar, freshEmail, verificationLinkFor } from './support/accounts';
import { launchBrowser, openPage } from './support/browser';
import { card } from './support/journey';

const PASSWORD = 'return-journey-2026';
const FREE = 'Exoplanet Discoveries';

async function fillLogin(page: Page, email: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('main').getByRole('button', { name: 'Login' }).click();
  await expectSnackbar(page, 'Login successful');
}

describe('logging in returns to where the user was', () => {
  let browser: Browser;
  let email: string;
  beforeAll(async () => {
    browser = await launchBrowser();
    email = freshEmail('return');
    await createVerifiedAccount('Return Tester', email, PASSWORD);
  });
  afterAll(() => browser?.close());

  it('Get on a dataset -> /login -> back on the dataset, where Get then works', async () => {
    const { context, page, errors } = await openPage(browser);
    // Found by its title: the journeys before this one may have pushed it off the first page.
    await page.goto(`/datastore?q=${encodeURIComponent(FREE)}`);
    await card(page, FREE).getByRole('link').click();
    await page.waitForURL(/\/dataset_profile\/[0-9a-f-]{36}$/);
    const datasetPath = new URL(page.url()).pathname;
    await page.getByRole('button', { name: 'Get', exact: true }).click();
    await page.waitForURL(`**/login?next=${encodeURIComponent(datasetPath)}`);
    await fillLogin(page, email);
    await page.waitForURL(`**${datasetPath}`);
    await page.getByRole('heading', { name: FREE, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Get', exact: true }).click();
    await expectSnackbar(page, 'Access granted!');
    expect(errors).toEqual([]);
    await context.close();
  });

  it.each(['//evil.com', 'https://evil.com/', '/\\evil.com'])(
    'refuses %s as a place to return to and goes to /manage',
    async (next) => {
      const { context, page } = await openPage(browser);
      await page.goto(`/login?next=${encodeURIComponent(next)}`);
      await fillLogin(page, email);
      await page.waitForURL((url) => url.pathname === '/manage');
      expect(page.url()).not.toContain('evil');
      await context.close();
    },
  );

  it('sends a logged-in user past /login, /register and a used verification link', async () => {
    const { context, page, errors } = await openPage(browser);
    await page.goto('/login');
    await fillLogin(page, email);
    await page.waitForURL('**/manage');
    await page.goto('/login?next=%2Fdatastore');
    await page.waitForURL('**/datastore');
    await page.goto('/register');
    await page.waitForURL('**/manage');
    await expect(page.getByRole('button', { name: 'Register' }).count()).resolves.toBe(0);
    // The link of this account was used when it was created: opened again, it leads on, not to /register.
    await page.goto(new URL(await verificationLinkFor(email)).pathname);
    await expectSnackbar(page, 'Your email is already verified.');
    await page.waitForURL('**/manage');
    expect(errors).toEqual([]);
    await context.close();
  });
});
