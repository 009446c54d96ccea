import type { APIRequestContext, Browser, BrowserContext, Page } from 'playwright-core';
import { FakeUpstream, sendJson, startFakeUpstream } from '../connectors/support/fake-upstream';
import { baseUrl, launchBrowser, screenshot } from './support/browser';

const DEMO = { email: 'demo@example.com', password: 'demo-password-2026' };
/** What every payload tries to do once it runs: count, retitle the page, open a dialog. */
const RUN = "window.__xss=(window.__xss||0)+1;document.title='XSS';alert('xss')";
/** Classic stored-XSS vectors: tags, handlers, URLs, attribute breakouts, template and mutation tricks. */
const VECTORS = [
  `<script>${RUN}</script>`,
  `<img src=x onerror="${RUN}">`,
  `<svg onload="${RUN}"></svg>`,
  `"><img src=x onerror=${RUN}>`,
  `'><script>${RUN}</script>`,
  `<a href="javascript:${RUN}">link</a>`,
  `javascript:${RUN}`,
  `<iframe srcdoc="<script>${RUN}</script>"></iframe>`,
  `<details open ontoggle="${RUN}"><summary>x</summary></details>`,
  `<math><mtext><table><mglyph><style><img src=x onerror="${RUN}">`,
  `{{constructor.constructor("${RUN}")()}}`,
];
const PAYLOAD = VECTORS.join(' ');
/** A word that marks our content on each page, so the test knows the page rendered it. */
const MARKER = `Quokka${Date.now()}`;
/** Literal text of a vector that must appear on screen as text, not as markup. */
const VISIBLE = '<img src=x onerror=';

// A listing's JSON-LD block is data the server writes (escaped, never run), not an injected script.
const INJECTED_ELEMENTS = `document.querySelectorAll(
  '[onerror],[onload],[ontoggle],[onclick],[onmouseover],[onfocus],[srcdoc],script:not([src]):not([type="application/ld+json"]),a[href^="javascript:" i],iframe'
).length`;

/** Quotes one CSV field. */
const csvField = (value: string) => `"${value.replace(/"/g, '""')}"`;

/**
 * Stored XSS: blog content, dataset titles, descriptions, column names and cells, connector specs
 * and connector-fetched values carry payloads; every page that shows them renders them inertly.
 */
describe('stored XSS in a browser', () => {
  let browser: Browser;
  let context: BrowserContext;
  let api: APIRequestContext;
  let upstream: FakeUpstream;
  let postSlug: string;
  let datasetId: string;
  let connectorId: string;
  let dialogs: string[];

  const post = (url: string, options: Parameters<APIRequestContext['post']>[1]) =>
    api.post(url, { ...options, headers: { Origin: baseUrl(), ...(options?.headers ?? {}) } });

  async function expectCreated(
    response: Awaited<ReturnType<APIRequestContext['post']>>,
  ): Promise<{ id: string }> {
    if (!response.ok())
      throw new Error(`${response.url()} answered ${response.status()}: ${await response.text()}`);
    return (await response.json()) as { id: string };
  }

  beforeAll(async () => {
    upstream = await startFakeUpstream((_request, response) =>
      sendJson(response, [{ name: `${MARKER} fetched ${PAYLOAD}`, [`${VISIBLE}${RUN}>`]: PAYLOAD }]),
    );
    browser = await launchBrowser();
    context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1280, height: 800 } });
    // Any inline script or handler that reaches the DOM shows up here, even though the CSP blocks it.
    await context.addInitScript(
      "document.addEventListener('securitypolicyviolation', (event) => { (window.__csp = window.__csp || []).push(event.violatedDirective + ' ' + event.blockedURI); });",
    );
    api = context.request;
    await expectCreated(await post('/api/users/login', { data: DEMO }));

    postSlug = `xss-${Date.now()}`;
    await expectCreated(
      await post('/api/blog', {
        data: {
          title: `${MARKER} ${VECTORS[1]}`,
          slug: postSlug,
          type: 'update',
          content: `<p>${MARKER}</p>${PAYLOAD}`,
        },
      }),
    );

    const header = ['name', `${VISIBLE}${RUN}>`, `<script>${RUN}</script>`].map(csvField).join(',');
    const row = [`${MARKER} cell`, PAYLOAD, `javascript:${RUN}`].map(csvField).join(',');
    datasetId = (
      await expectCreated(
        await post('/api/assets/upload-csv', {
          multipart: {
            title: `${MARKER} ${VECTORS[1]}`,
            description: PAYLOAD,
            category: VECTORS[1],
            keywords: '<svg/onload=alert(1)>, <img src=x onerror=alert(2)>',
            file: { name: 'xss.csv', mimeType: 'text/csv', buffer: Buffer.from(`${header}\n${row}\n`) },
          },
        }),
      )
    ).id;

    const spec = {
      title: VECTORS[1],
      description: PAYLOAD,
      protocol: 'http',
      base_url: upstream.origin,
      operations: [{ id: 'items', name: VECTORS[8], method: 'GET', url_path: '/items' }],
      fields: [
        { key: 'region', label: `${VISIBLE}${RUN}>`, type: 'select', options: [VECTORS[0], VECTORS[1]] },
        { key: 'note', label: VECTORS[2], type: 'text', default: PAYLOAD },
      ],
    };
    connectorId = (
      await expectCreated(
        await post('/api/connectors/upload', {
          data: { title: `${MARKER} ${VECTORS[1]}`, description: PAYLOAD, is_public: true, price: 0, spec },
        }),
      )
    ).id;
    const instance = await expectCreated(
      await post('/api/connectors/activate', {
        data: { connector_id: connectorId, settings: { note: PAYLOAD } },
      }),
    );
    await expectCreated(await post(`/api/connectors/run/${instance.id}`, { data: {} }));
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await upstream?.close();
  });

  async function openAndCheck(path: string, shows: string, name: string): Promise<Page> {
    const page = await context.newPage();
    dialogs = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(path);
    // Visible text only: a profile caption may hold the same words on a hidden small-screen layout.
    await page.getByText(shows).filter({ visible: true }).first().waitFor({ timeout: 20_000 });
    await page.waitForLoadState('networkidle');
    await screenshot(page, `xss-${name}`, 'desktop');
    expect({
      ran: await page.evaluate('window.__xss'),
      title: await page.title(),
      dialogs,
      cspViolations: (await page.evaluate('window.__csp')) ?? [],
      injectedElements: await page.evaluate(INJECTED_ELEMENTS),
    }).toEqual({
      ran: undefined,
      title: expect.not.stringMatching(/^XSS$/),
      dialogs: [],
      cspViolations: [],
      injectedElements: 0,
    });
    return page;
  }

  it('renders a blog post’s payloads inertly', async () => {
    const page = await openAndCheck(`/blog/${postSlug}`, MARKER, 'blog-post');
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toContain(VISIBLE);
    await page.close();
  });

  it('renders the blog list inertly', async () => {
    const page = await openAndCheck(`/blog?search=${MARKER}`, MARKER, 'blog-list');
    await page.close();
  });

  it('renders a dataset’s title, description, column names and cells inertly', async () => {
    const page = await openAndCheck(`/dataset_profile/${datasetId}`, `${MARKER} cell`, 'dataset');
    const text = await page.locator('body').innerText();
    expect(text).toContain(`${MARKER} ${VECTORS[1]}`);
    expect(text).toContain(`javascript:${RUN}`);
    await page.close();
  });

  it('renders the datastore cards inertly', async () => {
    const page = await openAndCheck(`/datastore`, MARKER, 'datastore');
    await page.close();
  });

  it('renders a connector’s profile with its spec inertly', async () => {
    const page = await openAndCheck(`/connector_profile/${connectorId}`, MARKER, 'connector-profile');
    expect(await page.locator('body').innerText()).toContain(VISIBLE);
    await page.close();
  });

  it('renders the connector setup form and the fetched rows inertly', async () => {
    const page = await openAndCheck(
      `/connector-setup/${connectorId}`,
      `${MARKER} fetched`,
      'connector-setup',
    );
    await page.close();
  });

  it('renders the Manage screen listing all of them inertly', async () => {
    const page = await openAndCheck('/manage', MARKER, 'manage');
    await page.getByRole('tab', { name: 'Uploaded Data' }).click();
    await page.getByText(MARKER).first().waitFor();
    expect(await page.evaluate('window.__xss')).toBeUndefined();
    expect(await page.evaluate(INJECTED_ELEMENTS)).toBe(0);
    expect(dialogs).toEqual([]);
    await page.close();
  });
});
