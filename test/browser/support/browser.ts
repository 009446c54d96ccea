import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';

export const SCREENSHOTS = resolve(__dirname, '..', '..', '..', 'test-artifacts', 'screenshots');
export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;
const EXPECTED_FAILURES = new Set(['net::ERR_ABORTED', 'net::ERR_INTERNET_DISCONNECTED']);

export function baseUrl(): string {
  const url = process.env.BROWSER_BASE_URL;
  if (!url) throw new Error('BROWSER_BASE_URL missing: run through npm run test:e2e');
  return url;
}

/**
 * Debian's Chromium, headless, with no background traffic. Playwright gives every launch a fresh
 * temporary profile (its own --user-data-dir) and refuses the flag from callers.
 */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * A new browser context (own cookies) at the given width, with page errors collected, and the
 * console's errors (a failed request shows there too) kept apart for the checks that want none.
 */
export async function openPage(
  browser: Browser,
  viewport: ViewportName = 'desktop',
): Promise<{ context: BrowserContext; page: Page; errors: string[]; consoleErrors: string[] }> {
  const context = await browser.newContext({ viewport: VIEWPORTS[viewport], baseURL: baseUrl() });
  const page = await context.newPage();
  const errors: string[] = [];
  const consoleErrors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // When a journey times out, these lines say whether the server failed or a request was lost.
  // Answers a test made up itself (page.route) have no server address and are left out, as are
  // requests the page aborted and those a test sent while emulating a network outage.
  page.on('response', async (response) => {
    if (response.status() >= 500 && (await response.serverAddr()))
      console.warn(`${response.status()} from ${response.url()}`);
  });
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? 'failed';
    if (!EXPECTED_FAILURES.has(reason)) console.warn(`${reason}: ${request.method()} ${request.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(`${message.text()} (${message.location().url})`);
  });
  return { context, page, errors, consoleErrors };
}

/** Saves a full-page screenshot as a test artefact: test-artifacts/screenshots/<name>-<viewport>.png. */
export async function screenshot(page: Page, name: string, viewport: ViewportName): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}-${viewport}.png`);
  // From the top: a full-page capture of a scrolled page draws the sticky header mid-page.
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path, fullPage: true });
  return path;
}
