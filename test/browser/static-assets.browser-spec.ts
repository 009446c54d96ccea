import type { Browser } from 'playwright-core';
import { baseUrl, launchBrowser, openPage } from './support/browser';

/** What the landing page costs a first-time visitor: bytes over the wire, every response included. */
async function landingTransferBytes(browser: Browser): Promise<number> {
  const { context, page } = await openPage(browser);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  let transferred = 0;
  cdp.on('Network.loadingFinished', (event) => {
    transferred += event.encodedDataLength;
  });
  await page.goto('/', { waitUntil: 'networkidle' });
  await context.close();
  return transferred;
}

async function firstScriptPath(): Promise<string> {
  const html = await (await fetch(`${baseUrl()}/`)).text();
  const match = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(html);
  if (!match) throw new Error('index.html names no script under /assets/');
  return match[1];
}

describe('static files: compressed, cached for good when hashed, no public source maps', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('sends the landing page in under 200 KB', async () => {
    const bytes = await landingTransferBytes(browser);
    console.log(`Landing page transferred: ${bytes} bytes`);
    expect(bytes).toBeLessThan(200_000);
  });

  it('serves hashed assets pre-compressed (brotli, else gzip) with a year of immutable caching', async () => {
    const script = `${baseUrl()}${await firstScriptPath()}`;
    const brotli = await fetch(script, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(brotli.status).toBe(200);
    expect(brotli.headers.get('content-encoding')).toBe('br');
    expect(brotli.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(brotli.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(brotli.headers.get('content-type')).toMatch(/javascript/);
    expect((await brotli.text()).length).toBeGreaterThan(1000);
    const gzip = await fetch(script, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    const plain = await fetch(script, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(await gzip.text());
  });

  it('serves index.html to be revalidated every time, for every route', async () => {
    for (const path of ['/', '/datastore']) {
      const response = await fetch(`${baseUrl()}${path}`);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('content-type')).toMatch(/text\/html/);
    }
  });

  it('serves no source maps, and a missing asset is a 404, not the app page', async () => {
    const script = await firstScriptPath();
    const map = await fetch(`${baseUrl()}${script}.map`);
    expect(map.status).toBe(404);
    const missing = await fetch(`${baseUrl()}/assets/no-such-file.js`);
    expect(missing.status).toBe(404);
    expect(await (await fetch(`${baseUrl()}${script}`)).text()).not.toContain('sourceMappingURL');
  });
});
