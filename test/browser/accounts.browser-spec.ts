import type { Browser, Page } from 'playwright-core';
import {
  snackbar,
  snapshot,
  answerWith,
  createVerifiedAccount,
  cutNetwork,
  DEMO,
  expectSnackbar,
  expectTitle,
  freshEmail,
  horizontalOverflow,
  logInThroughForm,
  verificationLinkFor,
} from './support/accounts';
import { launchBrowser, openPage } from './support/browser';

const PASSWORD = 'journey-password-2026';

const registerButton = (page: Page) => page.getByRole('main').getByRole('button', { name: 'Register' });
const header = (page: Page) => page.getByRole('banner');

async function headerShowsVisitorLinks(page: Page): Promise<void> {
  await header(page).getByRole('link', { name: 'Register' }).waitFor();
  await header(page).getByRole('link', { name: 'Login' }).waitFor();
  await expect(header(page).getByRole('button', { name: 'Account' }).count()).resolves.toBe(0);
}

describe('accounts in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('registers, verifies from the mailed link, logs in, uses the account page and logs out', async () => {
    const { context, page, errors } = await openPage(browser);
    const email = freshEmail('journey');

    await page.goto('/');
    await headerShowsVisitorLinks(page);
    await header(page).getByRole('link', { name: 'Register' }).click();
    await page.waitForURL('**/register');
    await expectTitle(page, 'Register · Data Marketplace');

    // The button stays disabled until name, e-mail, password and the terms checkbox are all given.
    await expect(registerButton(page).isDisabled()).resolves.toBe(true);
    await page.getByLabel('Name').fill('Journey Tester');
    await expect(registerButton(page).isDisabled()).resolves.toBe(true);
    await page.getByLabel('Email').fill(email);
    await expect(registerButton(page).isDisabled()).resolves.toBe(true);
    await page.getByLabel('Password').fill(PASSWORD);
    await expect(registerButton(page).isDisabled()).resolves.toBe(true);
    await page.getByRole('checkbox', { name: 'I accept the terms' }).check();
    await expect(registerButton(page).isEnabled()).resolves.toBe(true);
    await page.getByLabel('Name').fill('');
    await expect(registerButton(page).isDisabled()).resolves.toBe(true);
    await page.getByLabel('Name').fill('Journey Tester');
    await snapshot(page, 'register', 'desktop');

    await registerButton(page).click();
    await expectSnackbar(page, 'Registration successful. Please verify your email.');
    await page.waitForURL('**/login');

    // Before verification the server refuses the login with its own message.
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('main').getByRole('button', { name: 'Login' }).click();
    await expectSnackbar(
      page,
      'Please verify your email before logging in. Check your inbox for the verification link.',
    );

    const link = new URL(await verificationLinkFor(email));
    expect(link.pathname).toMatch(/^\/verify-email\/[^/]+$/);
    await page.goto(link.pathname);
    await expectSnackbar(page, '✅ Email verified!');
    await page.waitForURL('**/login');

    await logInThroughForm(page, email, PASSWORD);
    await expect(header(page).getByRole('link', { name: 'Register' }).count()).resolves.toBe(0);
    await header(page).getByRole('button', { name: 'Account' }).click();
    const menu = page.getByRole('menu');
    await expect(menu.getByRole('menuitem').allInnerTexts()).resolves.toEqual([
      'Manage Data',
      'Upload & Create',
      'Query',
      'Profile',
      'Organisations',
      'Logout',
    ]);
    await expect(menu.getByRole('menuitem', { name: 'Manage Data' }).getAttribute('href')).resolves.toBe(
      '/manage',
    );
    await expect(menu.getByRole('menuitem', { name: 'Upload & Create' }).getAttribute('href')).resolves.toBe(
      '/upload',
    );
    await expect(menu.getByRole('menuitem', { name: 'Organisations' }).getAttribute('href')).resolves.toBe(
      '/organisations',
    );
    await snapshot(page, 'account-menu', 'desktop');
    await menu.getByRole('menuitem', { name: 'Profile' }).click();
    await page.waitForURL('**/account');

    const main = page.getByRole('main');
    await main.getByText(`Email: ${email}`, { exact: true }).waitFor();
    await expectTitle(page, 'Profile · Data Marketplace');
    await snapshot(page, 'account', 'desktop');

    // Enable 2FA opens its setup (the whole journey is in account-security.browser-spec.ts).
    await main.getByRole('button', { name: 'Enable 2FA' }).click();
    const twoFactor = page.getByRole('dialog', { name: 'Enable 2FA' });
    await twoFactor.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    await twoFactor.getByRole('button', { name: 'Cancel' }).click();
    await twoFactor.waitFor({ state: 'detached' });

    // Change Password works: afterwards only the new password logs in.
    const newPassword = 'changed-password-2026';
    await main.getByRole('button', { name: 'Change Password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Password' });
    await dialog.getByLabel('Current password').fill(PASSWORD);
    await dialog.getByLabel(/^New password/).fill(newPassword);
    await dialog.getByLabel('Repeat new password').fill(newPassword);
    // The dialog asks whether to end the API key and tokens, and ends them unless told otherwise.
    expect(
      await dialog.getByRole('checkbox', { name: /Also end my API key and API tokens/ }).isChecked(),
    ).toBe(true);
    await snapshot(page, 'account-change-password', 'desktop');
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await expectSnackbar(
      page,
      'Password changed. Other sessions have been logged out, your API key was replaced and your API tokens were ended.',
    );
    await dialog.waitFor({ state: 'detached' });

    await main.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(new URL('/', page.url()).href);
    await headerShowsVisitorLinks(page);

    // Logged out, the guarded profile sends the visitor to /login, remembering where they were.
    await page.goto('/account');
    await page.waitForURL('**/login?next=%2Faccount');

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('main').getByRole('button', { name: 'Login' }).click();
    await expectSnackbar(page, 'Invalid email or password');
    await page.getByLabel('Password').fill(newPassword);
    await page.getByRole('main').getByRole('button', { name: 'Login' }).click();
    await expectSnackbar(page, 'Login successful');
    // After login the user is back on the guarded profile that sent them to log in.
    await page.waitForURL('**/account');
    await page.getByRole('button', { name: 'Change Password' }).waitFor();

    // The Account dropdown's Logout works too.
    await header(page).getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menu').getByRole('menuitem', { name: 'Logout' }).click();
    await headerShowsVisitorLinks(page);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the server message for a wrong password and keeps the visitor on /login', async () => {
    const { context, page } = await openPage(browser);
    await page.goto('/login');
    const loginButton = page.getByRole('main').getByRole('button', { name: 'Login' });
    await expect(loginButton.isDisabled()).resolves.toBe(true);
    await page.getByLabel('Email').fill(freshEmail('nobody'));
    await expect(loginButton.isDisabled()).resolves.toBe(true);
    await page.getByLabel('Password').fill('not-the-password');
    await snapshot(page, 'login', 'desktop');
    await loginButton.click();
    await expectSnackbar(page, 'Invalid email or password');
    expect(new URL(page.url()).pathname).toBe('/login');
    await context.close();
  });

  it("falls back to 'Login failed' and 'Error logging in' when the server gives no message or no answer", async () => {
    const { context, page } = await openPage(browser);
    await page.goto('/login');
    await page.getByLabel('Email').fill(DEMO.email);
    await page.getByLabel('Password').fill(DEMO.password);
    const loginButton = page.getByRole('main').getByRole('button', { name: 'Login' });

    await answerWith(page, 'users/login', 500);
    await loginButton.click();
    await expectSnackbar(page, 'Login failed');

    await page.unroute('**/api/users/login');
    await cutNetwork(page, 'users/login');
    await loginButton.click();
    await expectSnackbar(page, 'Error logging in');
    expect(new URL(page.url()).pathname).toBe('/login');
    await context.close();
  });

  it("shows 'Error registering' when the network fails, and a taken e-mail the same success as a new one", async () => {
    const { context, page } = await openPage(browser);
    await page.goto('/register');
    await page.getByLabel('Name').fill('Demo Again');
    await page.getByLabel('Email').fill(DEMO.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('checkbox', { name: 'I accept the terms' }).check();

    await cutNetwork(page, 'users/register');
    await registerButton(page).click();
    await expectSnackbar(page, 'Error registering');

    await page.unroute('**/api/users/register');
    await registerButton(page).click();
    // The owner of the address is told by e-mail; the page must not reveal that it is taken.
    await expectSnackbar(page, 'Registration successful. Please verify your email.');
    expect(new URL(page.url()).pathname).toBe('/login');
    await context.close();
  });

  it('sends a visitor with a bad verification link to /register with the reason', async () => {
    const { context, page } = await openPage(browser);
    await page.goto('/verify-email/not-a-real-token');
    await expectSnackbar(page, 'Invalid verification link');
    await page.waitForURL('**/register');
    await context.close();
  });

  it("says 'Verification failed' without a server message and 'Error verifying' without a network", async () => {
    const { context, page } = await openPage(browser);
    await answerWith(page, 'users/verify-email/*', 500);
    await page.goto('/verify-email/some-token');
    await expectSnackbar(page, 'Verification failed');
    await page.waitForURL('**/register');

    await page.unroute('**/api/users/verify-email/*');
    await cutNetwork(page, 'users/verify-email/*');
    await page.goto('/verify-email/some-token');
    await expectSnackbar(page, 'Error verifying');
    // Nothing was decided, so the visitor stays to try again.
    await page.getByRole('button', { name: 'Try again' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/verify-email/some-token');
    await snapshot(page, 'verify-email-error', 'desktop');
    await context.close();
  });

  it('lets a keyboard user register, log in and reach the profile through the Account menu', async () => {
    const { context, page } = await openPage(browser);
    const email = freshEmail('keyboard');
    await page.goto('/register');
    await expectTitle(page, 'Register · Data Marketplace');
    // The name field has the focus from the start; Tab walks through the form in reading order.
    await page.keyboard.type('Key Board');
    await page.keyboard.press('Tab');
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await expect(page.getByRole('checkbox', { name: 'I accept the terms' }).isChecked()).resolves.toBe(true);
    await page.keyboard.press('Enter');
    await expectSnackbar(page, 'Registration successful. Please verify your email.');
    await page.waitForURL('**/login');
    await page.goto(new URL(await verificationLinkFor(email)).pathname);
    // Only waited for, not closed: clicking its Close button would move the focus away from the form.
    await snackbar(page, '✅ Email verified!').waitFor();
    await page.waitForURL('**/login');

    await expectTitle(page, 'Login · Data Marketplace');
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await expectSnackbar(page, 'Login successful');
    await page.waitForURL('**/manage');

    await header(page).getByRole('button', { name: 'Account' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menu').waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(page.locator(':focus').innerText()).resolves.toBe('Query');
    await page.keyboard.press('ArrowDown');
    await expect(page.locator(':focus').innerText()).resolves.toBe('Profile');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/account');
    await page.getByRole('main').getByText(`Email: ${email}`, { exact: true }).waitFor();
    await context.close();
  });

  it('fits the authentication screens and the phone menu on a phone', async () => {
    const { context, page, errors } = await openPage(browser, 'phone');
    // The narrowest phones the layout supports.
    await page.setViewportSize({ width: 360, height: 740 });
    const email = freshEmail('phone');
    await createVerifiedAccount('Phone Tester', email, PASSWORD);

    for (const [path, name] of [
      ['/login', 'login'],
      ['/register', 'register'],
    ] as const) {
      await page.goto(path);
      await page
        .getByRole('main')
        .getByRole('button', { name: name === 'login' ? 'Login' : 'Register' })
        .waitFor();
      expect(await horizontalOverflow(page)).toBe(0);
      await snapshot(page, name, 'phone');
    }

    await page.getByRole('banner').getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('navigation', { name: 'Main menu' });
    await drawer.getByRole('link', { name: 'Login' }).waitFor();
    await drawer.getByRole('link', { name: 'Register' }).waitFor();
    await snapshot(page, 'phone-menu-visitor', 'phone');
    await drawer.getByRole('link', { name: 'Login' }).click();
    await page.waitForURL('**/login');

    await logInThroughForm(page, email, PASSWORD);
    await page.getByRole('banner').getByRole('button', { name: 'Open menu' }).click();
    await expect(
      page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Register' }).count(),
    ).resolves.toBe(0);
    await snapshot(page, 'phone-menu-account', 'phone');
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Profile' }).click();
    await page.waitForURL('**/account');
    await page.getByRole('main').getByText(`Email: ${email}`, { exact: true }).waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    await snapshot(page, 'account', 'phone');

    await page.getByRole('main').getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('banner').getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Login' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
