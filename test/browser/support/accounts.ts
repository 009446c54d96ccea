import type { Page } from 'playwright-core';
import { baseUrl, screenshot, ViewportName } from './browser';

/** The seeded demo user: verified, pro and blog editor. */
export const DEMO = { email: 'demo@example.com', password: 'demo-password-2026' };

/** A fresh address per call, so journeys never meet each other's accounts. */
export function freshEmail(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

/** The snackbar alert whose text is exactly `text`. */
export function snackbar(page: Page, text: string) {
  return page
    .locator('.MuiSnackbar-root .MuiAlert-root')
    .filter({ has: page.locator('.MuiAlert-message').getByText(text, { exact: true }) });
}

/**
 * Waits for the snackbar with exactly this text, then closes it so that a queued message shows at
 * once rather than after this one's timeout.
 */
export async function expectSnackbar(page: Page, text: string, timeout = 15_000): Promise<void> {
  const alert = snackbar(page, text).first();
  await alert.waitFor({ timeout });
  await alert
    .getByRole('button', { name: 'Close' })
    .click({ timeout: 2_000 })
    .catch(() => undefined);
  await alert.waitFor({ state: 'detached', timeout: 5_000 }).catch(() => undefined);
}

/** Logs in through the Login screen and waits for 'Login successful' and /manage. */
export async function logInThroughForm(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expectSnackbar(page, 'Login successful');
  await page.waitForURL('**/manage');
}

/** The newest verification link mailed to this address (dev outbox, non-production only). */
export async function verificationLinkFor(email: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${baseUrl()}/api/dev/outbox?email=${encodeURIComponent(email)}`);
    if (response.ok) {
      const messages = (await response.json()) as Array<{ links: string[] }>;
      const link = messages.flatMap((message) => message.links).find((url) => url.includes('/verify-email/'));
      if (link) return link;
    }
    await new Promise((retry) => setTimeout(retry, 200));
  }
  throw new Error(`No verification mail reached the outbox for ${email}`);
}

/** Creates a verified account through the API (register, then the mailed link), for journeys about other things. */
export async function createVerifiedAccount(name: string, email: string, password: string): Promise<void> {
  const response = await fetch(`${baseUrl()}/api/users/register`, {
    method: 'POST',
    headers: { origin: baseUrl(), 'content-type': 'application/json' },
    body: JSON.stringify({ name, email, password }),
  });
  if (!response.ok) throw new Error(`register ${email}: ${response.status} ${await response.text()}`);
  const link = new URL(await verificationLinkFor(email));
  const verified = await fetch(`${baseUrl()}/api/users${link.pathname}`);
  if (!verified.ok) throw new Error(`verify ${email}: ${verified.status} ${await verified.text()}`);
}

/** Answers the next matching API call with a status and an optional JSON body instead of the server. */
export async function answerWith(page: Page, path: string, status: number, body?: unknown): Promise<void> {
  await page.route(`**/api/${path}`, (route) =>
    route.fulfill({
      status,
      contentType: 'application/json',
      body: body === undefined ? '' : JSON.stringify(body),
    }),
  );
}

/** Makes calls to this API path fail as if the network were down. */
export async function cutNetwork(page: Page, path: string): Promise<void> {
  await page.route(`**/api/${path}`, (route) => route.abort('internetdisconnected'));
}

/** How many pixels the page scrolls sideways at its current width (0 when nothing is wider than the viewport). */
export async function horizontalOverflow(page: Page): Promise<number> {
  // Expressions, not functions: the test code is type-checked without the browser's DOM types.
  return page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
}

/**
 * Reads a value until it equals the expected one (screens settle after lazy loading and refetching);
 * on timeout the last value read is compared, so the failure shows what was there instead.
 */
export async function expectEventually<T>(
  read: () => Promise<T>,
  expected: T,
  timeout = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeout;
  let actual = await read();
  while (JSON.stringify(actual) !== JSON.stringify(expected) && Date.now() < deadline) {
    await new Promise((retry) => setTimeout(retry, 100));
    actual = await read();
  }
  expect(actual).toEqual(expected);
}

/** Waits until the browser tab shows this title (routes set it once their screen has loaded). */
export async function expectTitle(page: Page, title: string): Promise<void> {
  await expectEventually(() => page.title(), title);
}

/** Waits for running transitions (menus, dialogs, snackbars) to end; endless spinners are ignored. */
export async function animationsDone(page: Page): Promise<void> {
  await page.evaluate(`Promise.all(
    document
      .getAnimations()
      .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
      .map((animation) => animation.finished.catch(() => undefined)),
  )`);
}

/**
 * A full-page screenshot taken from the top of the page once transitions have ended, so the sticky
 * header sits at the top of the picture rather than wherever the page was scrolled to.
 */
export async function snapshot(page: Page, name: string, viewport: ViewportName): Promise<void> {
  await page.evaluate('window.scrollTo(0, 0)');
  await animationsDone(page);
  await screenshot(page, name, viewport);
}
