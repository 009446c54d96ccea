import type { Browser, Page } from 'playwright-core';
import { EXAMPLE_SPEC } from '../../frontend/src/pages/Documentation/example-spec';
import { FakeUpstream, sendJson, startFakeUpstream } from '../connectors/support/fake-upstream';
import { launchBrowser, openPage, screenshot } from './support/browser';
import { apiAs, DEMO_USER, eventually, expectNotice, logIn } from './support/journey';

const STATIONS: Record<string, Array<{ id: string; name: string }>> = {
  DE: [
    { id: 'BER', name: 'Berlin' },
    { id: 'HAM', name: 'Hamburg' },
  ],
  FR: [{ id: 'PAR', name: 'Paris' }],
};
const CLIENT = { id: 'weather-client', secret: 'weather-secret', token: 'weather-access-token' };

/**
 * The weather API of the documentation's complete example, on loopback: a client-credentials
 * token, stations per country (public) and observations (with the token only).
 */
function startWeatherApi(): Promise<FakeUpstream> {
  return startFakeUpstream((request, response) => {
    const path = request.url.pathname;
    if (path === '/v2/oauth/token') {
      const form = new URLSearchParams(request.body);
      if (form.get('client_id') !== CLIENT.id || form.get('client_secret') !== CLIENT.secret)
        return sendJson(response, { error: 'invalid_client' }, 401);
      return sendJson(response, { access_token: CLIENT.token, token_type: 'Bearer', expires_in: 3600 });
    }
    if (path === '/v2/stations')
      return sendJson(response, STATIONS[request.url.searchParams.get('country') ?? ''] ?? []);
    const observations = /^\/v2\/stations\/(\w+)\/observations$/.exec(path);
    if (observations) {
      if (request.headers.authorization !== `Bearer ${CLIENT.token}`)
        return sendJson(response, { error: 'unauthorised' }, 401);
      return sendJson(response, {
        status: 'ok',
        data: {
          observations: [1, 2].map((hour) => ({ station: observations[1], hour, temperature: 10 + hour })),
        },
        meta: { next: null, has_more: false },
      });
    }
    return sendJson(response, { error: 'not found' }, 404);
  });
}

async function pickOption(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe("the documentation's complete connector example, connected in a browser", () => {
  let browser: Browser;
  let api: FakeUpstream;

  beforeAll(async () => {
    browser = await launchBrowser();
    api = await startWeatherApi();
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  it('uploads the example through the form, its title and description taken from the spec, the uploader its author', async () => {
    const { context, page, errors } = await openPage(browser);
    await logIn(page, DEMO_USER.email, DEMO_USER.password);
    await page.goto('/upload?tab=connector');
    await page.getByText("Leave empty to use the spec's title.").waitFor();
    const specBox = page.getByLabel('Connector spec (JSON)');
    // Broken JSON is what needs fixing, even with the title left empty.
    await specBox.fill('{ "title": ');
    await page.getByRole('button', { name: 'Upload Connector' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid JSON in connector spec.' }).waitFor();
    await expect(page.getByText('Title is required.').count()).resolves.toBe(0);

    await specBox.fill(JSON.stringify({ ...EXAMPLE_SPEC, base_url: `${api.origin}/v2` }, null, 2));
    await page.getByRole('button', { name: 'Upload Connector' }).click();
    await page.waitForURL(/\/connector_profile\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { name: EXAMPLE_SPEC.title, level: 1 }).waitFor();
    const details = await page.getByRole('region', { name: 'Details' }).innerText();
    expect(details).toContain(EXAMPLE_SPEC.description);
    expect(details).not.toContain('No description yet.');
    expect(details).toMatch(/Author\s+Demo User/i);
    expect(details).toContain(api.origin);
    // The uploader is told it is theirs, beside Connect, with the way to their uploads.
    const hero = page.locator('header', { has: page.getByRole('heading', { level: 1 }) });
    await hero.getByText('You own this', { exact: true }).waitFor();
    await expect(hero.getByRole('button', { name: 'Connect' }).count()).resolves.toBe(1);
    await expect(hero.getByRole('link', { name: 'Your uploads' }).getAttribute('href')).resolves.toBe(
      '/manage?tab=uploaded',
    );
    expect(errors).toEqual([]);
    await context.close();
  });

  it('loads the Station list from its options_endpoint, reloads it for another country, saves and runs', async () => {
    const { context, page, errors } = await openPage(browser);
    await logIn(page, DEMO_USER.email, DEMO_USER.password);
    const { id } = await apiAs<{ id: string }>(page, 'POST', 'connectors/upload', {
      title: EXAMPLE_SPEC.title,
      is_public: false,
      spec: { ...EXAMPLE_SPEC, base_url: `${api.origin}/v2` },
    });

    await page.goto(`/connector-setup/${id}`);
    // Country defaults to Germany: its stations are asked for at once.
    await pickOption(page, 'Station', 'Hamburg');
    expect(api.requests.map((request) => `${request.url.pathname}${request.url.search}`)).toContain(
      '/v2/stations?country=DE',
    );
    // Another country: the list is loaded again, and a German station is no longer chosen.
    await pickOption(page, 'Country', 'France');
    await eventually(
      async () => api.requests.some((request) => request.url.search === '?country=FR'),
      'the stations of France to be asked for',
    );
    // No station: the preview says the address is incomplete rather than showing stations//observations quietly.
    const preview = page.getByRole('figure', { name: 'Final URL preview' });
    await preview.getByText('Incomplete URL: fill Station, part of the address.').waitFor();
    await expect(preview.locator('code').innerText()).resolves.toContain('/stations//observations');
    await page.getByRole('combobox', { name: 'Station' }).click();
    await page.getByRole('option', { name: 'Paris', exact: true }).waitFor();
    await expect(page.getByRole('option', { name: 'Hamburg', exact: true }).count()).resolves.toBe(0);
    await page.getByRole('option', { name: 'Paris', exact: true }).click();
    await page.getByLabel('From').fill('2026-01-01');
    await expect(preview.getByText('Incomplete URL').count()).resolves.toBe(0);
    await expect(preview.locator('code').innerText()).resolves.toContain('/stations/PAR/observations');

    // A key typed in Advanced (JSON) that no field declares is named under the editor, is not
    // sent upstream, and saving is refused with its name until it goes.
    await page.getByLabel('Advanced (JSON)').check();
    const json = page.getByLabel('Settings JSON');
    const typed = JSON.parse(await json.inputValue());
    await json.fill(JSON.stringify({ ...typed, sneaky: 'x' }, null, 2));
    await page.getByText('Not fields of this connector, so saving refuses them: sneaky.').waitFor();
    await expect(preview.locator('code').innerText()).resolves.not.toContain('sneaky');
    await page.getByLabel('Client ID').fill(CLIENT.id);
    await page.getByLabel('Client secret').fill(CLIENT.secret);
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expectNotice(page, 'settings.sneaky is not a field of this connector');
    await json.fill(JSON.stringify(typed, null, 2));
    await page.getByLabel('Advanced (JSON)').uncheck();
    await screenshot(page, 'documented-connector-setup', 'desktop');

    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expectNotice(page, 'Connected successfully.');
    await expectNotice(page, 'Settings saved successfully.');
    const [instance] = (
      await apiAs<Array<{ connector_id: string; settings: Record<string, unknown> }>>(
        page,
        'GET',
        'connectors/my',
      )
    ).filter((candidate) => candidate.connector_id === id);
    expect(instance.settings).toMatchObject({
      station: 'PAR',
      country: 'FR',
      period: { from: '2026-01-01' },
    });

    const run = page.getByRole('button', { name: 'Run Now' });
    await eventually(async () => !(await run.isDisabled()), 'Run Now to be enabled');
    await run.click();
    await expectNotice(page, 'Run finished: 2 rows fetched.', 30_000);
    const call = api.requests.find((request) => request.url.pathname === '/v2/stations/PAR/observations');
    expect(call?.headers.authorization).toBe(`Bearer ${CLIENT.token}`);
    expect(call?.url.searchParams.get('from')).toBe('2026-01-01');
    expect(errors).toEqual([]);
    await context.close();
  });
});
