import type { Locator, Page } from 'playwright-core';
import { baseUrl } from './browser';

export const DEMO_USER = { email: 'demo@example.com', password: 'demo-password-2026' };

/** A unique e-mail per call, so suites never collide with each other or with earlier runs. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

/**
 * Waits for a snackbar with exactly this text, then closes it: snackbars queue one at a time, so the
 * next message shows at once instead of after the previous one's timeout.
 */
export async function expectNotice(page: Page, text: string, timeout = 15_000): Promise<void> {
  const notices = page.locator('.MuiSnackbar-root .MuiAlert-root');
  const notice = notices.filter({ hasText: text });
  await notice
    .first()
    .waitFor({ timeout })
    .catch(async (error: Error) => {
      // What the screen said instead (an error notice names the server's refusal).
      const shown = await notices.allInnerTexts().catch(() => []);
      throw new Error(`${error.message}\nNotices shown instead: ${JSON.stringify(shown)}`, { cause: error });
    });
  expect((await notice.first().innerText()).trim()).toBe(text);
  await notice
    .first()
    .getByRole('button', { name: 'Close' })
    .click({ timeout: 2_000 })
    .catch(() => undefined);
}

/** Logs in through the Login screen; the app then goes to /manage. */
export async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expectNotice(page, 'Login successful');
  await page.waitForURL('**/manage');
}

/** Registers through the Register screen and follows the verification link from the dev outbox. */
export async function registerAndVerify(page: Page, name: string, email: string, password: string) {
  await page.goto('/register');
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Register' }).click();
  await expectNotice(page, 'Registration successful. Please verify your email.');
  await page.waitForURL('**/login');

  const link = await verificationLink(email);
  await page.goto(new URL(link).pathname);
  await expectNotice(page, '✅ Email verified!');
  await page.waitForURL('**/login');
}

async function verificationLink(email: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${baseUrl()}/api/dev/outbox?email=${encodeURIComponent(email)}`);
    const messages = (await response.json()) as Array<{ links: string[] }>;
    const link = messages.flatMap((message) => message.links).find((url) => url.includes('/verify-email/'));
    if (link) return link;
    await new Promise((wait) => setTimeout(wait, 200));
  }
  throw new Error(`No verification mail for ${email}`);
}

/** Calls the API with the page's session cookie (and the app's Origin, as state changes require). */
export async function apiAs<T>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  const response = await page.request.fetch(`${baseUrl()}/api/${path}`, {
    method,
    headers: { origin: baseUrl(), 'content-type': 'application/json' },
    data: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok()) throw new Error(`${method} ${path}: ${response.status()} ${await response.text()}`);
  return (await response.json()) as T;
}

/** The catalogue card whose title is exactly this text. */
export function card(page: Page, title: string): Locator {
  return page.locator('article').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
}

/** Visible texts of the rows a MUI X DataGrid currently renders. */
export async function gridRowTexts(grid: Locator): Promise<string[]> {
  await grid.locator('.MuiDataGrid-row').first().waitFor();
  // While it (re)loads, the grid draws empty skeleton rows: wait for the rows with content.
  await eventually(
    async () =>
      (await grid.locator('.MuiSkeleton-root').count()) === 0 &&
      (await grid.locator('.MuiDataGrid-row').first().innerText()).trim() !== '',
    'the grid rows to load',
  );
  return grid.locator('.MuiDataGrid-row').allInnerTexts();
}

/** Polls a condition the page shows until it holds; the browser-side variant would need DOM types here. */
export async function eventually(check: () => Promise<boolean>, what: string, timeout = 15_000) {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((wait) => setTimeout(wait, 50));
  }
  throw new Error(`Timed out waiting for ${what}`);
}
