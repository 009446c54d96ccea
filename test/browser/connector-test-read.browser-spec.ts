import type { Browser, Page } from 'playwright-core';
import { FakeUpstream, sendJson, startFakeUpstream } from '../connectors/support/fake-upstream';
import { launchBrowser, openPage, screenshot, ViewportName } from './support/browser';
import { apiAs, DEMO_USER, expectNotice, gridRowTexts, logIn } from './support/journey';

const TIDES = [
  { id: '1798765432109876543', observedAt: '2024-01-01T00:00:00Z', level: 1.25 },
  { id: '2', observedAt: '2024-01-01T01:00:00Z', level: 1.5 },
];

function tidesSpec(origin: string) {
  return {
    base_url: origin,
    auth: { type: 'api_key', in: 'query', name: 'key', fields: [{ key: 'key', label: 'Key' }] },
    operations: [{ id: 'tides', url_path: '/tides', response_path: 'data' }],
  };
}

async function expectResult(page: Page) {
  const result = page.getByRole('region', { name: /^Test read: 2 records from 1 pages/ });
  await result.waitFor();
  const requests = await result.getByRole('table', { name: 'Requests made' }).innerText();
  expect(requests).toMatch(/GET\s+http:\/\/127\.0\.0\.1:\d+\/tides\?key=\[hidden\]\s+200/);
  expect(requests).not.toContain('tide-secret');
  const columns = await result.getByLabel('Detected columns').innerText();
  expect(columns.split('\n')).toEqual(['id: numeric', 'observed_at: timestamptz', 'level: numeric']);
  const rows = await gridRowTexts(result.getByRole('grid', { name: 'Test read records' }));
  expect(rows[0]).toContain('1798765432109876543');
  return result;
}

describe('Test Read on the upload and setup screens', () => {
  let browser: Browser;
  let upstream: FakeUpstream;

  beforeAll(async () => {
    browser = await launchBrowser();
    // The ids are written as JSON text so the 19-digit one reaches the app exactly.
    upstream = await startFakeUpstream((request, response) => {
      if (request.url.searchParams.get('key') !== 'tide-secret')
        return sendJson(response, { error: 'key' }, 401);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        `{"data":[${TIDES.map((tide) => `{"id":${tide.id},"observedAt":"${tide.observedAt}","level":${tide.level}}`).join(',')}]}`,
      );
    });
  });
  afterAll(async () => {
    await browser?.close();
    await upstream?.close();
  });

  it.each<ViewportName>(['desktop', 'phone'])(
    'the upload screen reads a spec without uploading it (%s)',
    async (viewport) => {
      const { context, page, errors } = await openPage(browser, viewport);
      await logIn(page, DEMO_USER.email, DEMO_USER.password);
      const before = await apiAs<unknown[]>(page, 'GET', 'connectors');
      await page.goto('/upload?tab=connector');
      await page
        .getByLabel('Connector spec (JSON)')
        .fill(JSON.stringify(tidesSpec(upstream.origin), null, 2));
      await page
        .getByLabel('Test read values (JSON, optional)')
        .fill('{"auth_data": {"key": "tide-secret"}}');
      await page.getByRole('button', { name: 'Test Read' }).click();
      await expectResult(page);
      await screenshot(page, 'upload-connector-test-read', viewport);
      expect(await apiAs<unknown[]>(page, 'GET', 'connectors')).toHaveLength(before.length);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it('the setup screen reads with the form’s values before anything is saved', async () => {
    const { context, page, errors } = await openPage(browser);
    await logIn(page, DEMO_USER.email, DEMO_USER.password);
    const { id } = await apiAs<{ id: string }>(page, 'POST', 'connectors/upload', {
      title: `Tides ${Date.now()}`,
      is_public: false,
      spec: tidesSpec(upstream.origin),
    });
    await page.goto(`/connector-setup/${id}`);
    await page.getByLabel('Key').fill('tide-secret');
    await page.getByRole('button', { name: 'Test Read' }).click();
    await expectResult(page);
    await screenshot(page, 'connector-setup-test-read', 'desktop');
    const mine = await apiAs<Array<{ connector_id: string }>>(page, 'GET', 'connectors/my');
    expect(mine.some((instance) => instance.connector_id === id)).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('resets the incremental state of a connected instance after asking, so the next run reads from the start', async () => {
    const { context, page, errors } = await openPage(browser);
    await logIn(page, DEMO_USER.email, DEMO_USER.password);
    const spec = tidesSpec(upstream.origin);
    const incrementalSpec = {
      ...spec,
      operations: [{ ...spec.operations[0], incremental: { cursor_field: 'observedAt', param: 'since' } }],
    };
    const { id } = await apiAs<{ id: string }>(page, 'POST', 'connectors/upload', {
      title: `Tides incremental ${Date.now()}`,
      is_public: false,
      spec: incrementalSpec,
    });
    const instance = await apiAs<{ id: string }>(page, 'POST', 'connectors/activate', {
      connector_id: id,
      auth_data: { key: 'tide-secret' },
    });
    await apiAs(page, 'POST', `connectors/run/${instance.id}`, {});
    await page.goto(`/connector-setup/${id}`);
    await page.getByRole('button', { name: 'Reset State' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset the incremental state?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    upstream.requests.splice(0);
    await apiAs(page, 'POST', `connectors/run/${instance.id}`, {});
    // Not reset: the second run asked only for what is newer than the first run's cursor.
    expect(upstream.requests.at(-1)?.url.searchParams.get('since')).toMatch(/^2024-01-01T01:00:00/);
    await page.getByRole('button', { name: 'Reset State' }).click();
    await dialog.getByRole('button', { name: 'Reset State' }).click();
    await expectNotice(page, 'Incremental state reset: the next run reads from the start value.');
    upstream.requests.splice(0);
    await apiAs(page, 'POST', `connectors/run/${instance.id}`, {});
    expect(upstream.requests.at(-1)?.url.searchParams.has('since')).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });
});
