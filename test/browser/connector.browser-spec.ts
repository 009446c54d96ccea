import type { Browser, Page } from 'playwright-core';
import type { FakeUpstream } from '../connectors/support/fake-upstream';
import { launchBrowser, openPage, screenshot, ViewportName } from './support/browser';
import {
  FAKE_TOKEN,
  HARBOUR_STATIONS,
  harbourSpec,
  harbourTwoStreamSpec,
  startHarbourApi,
} from './support/fake-api';
import {
  apiAs,
  card,
  DEMO_USER,
  eventually,
  expectNotice,
  gridRowTexts,
  logIn,
  registerAndVerify,
  uniqueEmail,
} from './support/journey';

interface Instance {
  id: string;
  connector_id: string;
  title: string;
  refresh_interval: number;
  settings: Record<string, unknown>;
  has_auth_data: boolean;
  readable_name: string;
  headers?: Record<string, string>;
}

const PASSWORD = 'browser-connector-2026';

const specBox = (page: Page) => page.getByLabel('Connector spec (JSON)');

async function pickOption(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('uploading, setting up and running a connector in a browser', () => {
  let browser: Browser;
  let api: FakeUpstream;
  let connectorId: string;
  let instanceTitle: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    api = await startHarbourApi(4000);
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  it('uploads a connector spec, rejecting invalid JSON and listing the problems of an invalid spec', async () => {
    const { context, page, errors } = await openPage(browser);
    await logIn(page, DEMO_USER.email, DEMO_USER.password);
    await page.goto('/upload?tab=connector');
    await expect(
      page.getByRole('link', { name: 'connector documentation' }).getAttribute('href'),
    ).resolves.toBe('/documentation');
    await page.getByLabel('Title').fill('Harbour Sensors');
    await page.getByLabel('Description').fill('Hourly water levels from harbour sensors.');
    await page.getByLabel('Public (listed for everyone)').uncheck();

    await specBox(page).fill('{ "operations": [ ');
    await page.getByRole('button', { name: 'Upload Connector' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid JSON in connector spec.' }).waitFor();

    await specBox(page).fill(JSON.stringify({ protocol: 'websocket', operations: [{ id: 'x' }] }));
    await page.getByRole('button', { name: 'Upload Connector' }).click();
    await expectNotice(page, 'Upload failed');
    const problems = await page.getByRole('list', { name: 'Problems in the spec' }).innerText();
    expect(problems).toContain('/protocol: WebSocket connectors are not supported');
    expect(problems).toMatch(/\/operations\/0/);
    await screenshot(page, 'upload-connector-problems', 'desktop');

    await specBox(page).fill(JSON.stringify(harbourSpec(api.origin), null, 2));
    await page.getByRole('button', { name: 'Upload Connector' }).click();
    await page.waitForURL(/\/connector_profile\/[0-9a-f-]{36}$/);
    connectorId = page.url().split('/').pop() as string;
    await page.getByRole('heading', { name: 'Harbour Sensors', level: 1 }).waitFor();
    const hero = page.locator('main header');
    await expect(hero.getByText('API', { exact: true }).count()).resolves.toBe(1);
    await expect(hero.getByText('Private', { exact: true }).count()).resolves.toBe(1);
    expect(await page.locator('main').textContent()).toContain('CategoryAPI');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('fills the schema form, saves (connecting first), runs and previews the rows without a reload', async () => {
    const { context, page, errors } = await openPage(browser);
    await logIn(page, DEMO_USER.email, DEMO_USER.password);

    // Connect on the profile leads to the setup form: the connector has required settings.
    await page.goto(`/connector_profile/${connectorId}`);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.waitForURL(`**/connector-setup/${connectorId}`);
    // Opened afresh (nothing cached) on a slow connection, the screen says it is loading.
    await page.route(`**/api/connectors/${connectorId}`, async (route) => {
      await new Promise((wait) => setTimeout(wait, 1000));
      await route.continue().catch(() => undefined);
    });
    await page.reload();
    const loading = page.getByRole('status').filter({ hasText: 'Loading connector...' });
    await eventually(() => loading.isVisible(), "'Loading connector...'");
    await page.unroute(`**/api/connectors/${connectorId}`);

    await page.getByRole('combobox', { name: 'Station' }).waitFor();
    await page.getByText('You need to connect first before saving settings.').waitFor();
    await expect(page.getByRole('button', { name: 'Run Now' }).isDisabled()).resolves.toBe(true);
    await expect(page.getByLabel('API URL template').inputValue()).resolves.toBe(
      `${api.origin}/readings?station={{station}}&unit={{unit}}&depth={{filters.depth}}`,
    );

    // Required fields are enforced: nothing is created while the token is empty.
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await page.getByText('This field is required.').waitFor();
    await expect(page.getByLabel('Access token').getAttribute('aria-invalid')).resolves.toBe('true');
    expect(await apiAs<Instance[]>(page, 'GET', 'connectors/my')).not.toContainEqual(
      expect.objectContaining({ connector_id: connectorId }),
    );

    // The Unit field exists only for the south station; Depth sits inside the Filters group.
    await pickOption(page, 'Station', 'north');
    await expect(page.getByRole('combobox', { name: 'Unit' }).count()).resolves.toBe(0);
    await pickOption(page, 'Station', 'south');
    await pickOption(page, 'Unit', 'in');
    // The group titles its own block, and its field's path runs through it (saved as filters.depth).
    await expect(page.locator('[id$="filters__title"]').innerText()).resolves.toBe('Filters');
    const depth = page.getByLabel('Depth (m)');
    expect(await depth.getAttribute('id')).toMatch(/filters_depth$/);
    await depth.fill('5');
    await page.getByLabel('Access token').fill(FAKE_TOKEN);
    const preview = page.getByRole('figure', { name: 'Final URL preview' });
    await expect(preview.locator('code').innerText()).resolves.toBe(
      `${api.origin}/readings?station=south&unit=in&depth=5`,
    );
    await screenshot(page, 'connector-setup-form', 'desktop');

    // Advanced: the same settings as nested JSON; invalid JSON blocks saving and switching back.
    await page.getByLabel('Advanced (JSON)').check();
    const json = page.getByLabel('Settings JSON');
    expect(JSON.parse(await json.inputValue())).toMatchObject({
      station: 'south',
      unit: 'in',
      filters: { depth: 5 },
    });
    const edited = { ...JSON.parse(await json.inputValue()), filters: { depth: 7 } };
    await json.fill('{ "station": "south", ');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expectNotice(page, 'Invalid JSON – fix before saving.');
    await page.getByLabel('Advanced (JSON)').click();
    await expectNotice(page, 'Invalid JSON format');
    await expect(page.getByLabel('Advanced (JSON)').isChecked()).resolves.toBe(true);
    await screenshot(page, 'connector-setup-advanced', 'desktop');
    await json.fill(JSON.stringify(edited, null, 2));
    await page.getByLabel('Advanced (JSON)').uncheck();
    await expect(depth.inputValue()).resolves.toBe('7');

    // Request options: the interval is the demo user's to set (pro); it is set once a run has been made,
    // so that the scheduler does not start one of its own meanwhile. POST shows a body template.
    await expect(page.getByLabel('Refresh Interval (minutes)').isEditable()).resolves.toBe(true);
    await pickOption(page, 'HTTP Method', 'POST');
    await page.getByLabel('POST body template (JSON)').waitFor();
    await pickOption(page, 'HTTP Method', 'GET');
    await expect(page.getByLabel('POST body template (JSON)').count()).resolves.toBe(0);
    await page.getByLabel('Override existing table on rerun').check();
    await page.getByRole('button', { name: 'Add header' }).click();
    await page.getByLabel('Header 1 name').fill('X-Trace');
    await page.getByLabel('Header 1 value').fill('browser-journey');
    await page.getByRole('button', { name: 'Add header' }).click();
    await page.getByLabel('Header 2 name').fill('X-Unwanted');
    await page.getByRole('button', { name: 'Remove header 2' }).click();
    await expect(page.getByLabel('Header 2 name').count()).resolves.toBe(0);

    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expectNotice(page, 'Connected successfully.');
    await expectNotice(page, 'Settings saved successfully.');
    const instance = (await apiAs<Instance[]>(page, 'GET', 'connectors/my')).find(
      (candidate) => candidate.connector_id === connectorId,
    ) as Instance;
    instanceTitle = instance.title;
    expect(instance.settings).toEqual({
      station: 'south',
      unit: 'in',
      filters: { depth: 7 },
      override: true,
    });
    expect(JSON.stringify(instance)).not.toContain(FAKE_TOKEN);
    expect(instance).toMatchObject({ has_auth_data: true, refresh_interval: 0 });
    expect(instance.headers).toEqual({ 'X-Trace': 'browser-journey' });

    // Run Now: the run shows as running, then the preview fills in by itself.
    const run = page.getByRole('button', { name: 'Run Now' });
    await eventually(async () => !(await run.isDisabled()), 'Run Now to be enabled');
    await run.click();
    // While the upstream answers, the run shows as running and cannot be started twice.
    const history = page.getByRole('table', { name: 'Run history' });
    await history.getByText('Running', { exact: true }).waitFor();
    await expect(page.getByRole('button', { name: 'Running…' }).isDisabled()).resolves.toBe(true);
    await screenshot(page, 'connector-run-running', 'desktop');
    await expectNotice(page, 'Run triggered. This page shows the new data by itself once the run is done.');
    await expectNotice(page, 'Run finished: 3 rows fetched.', 30_000);
    const previewGrid = page.getByRole('grid', { name: 'Existing dataset preview' });
    const rows = await gridRowTexts(previewGrid);
    expect(rows).toHaveLength(3);
    expect(rows.join('\n')).toContain('south');
    await page.getByText('Latest 100 rows fetched.').waitFor();
    await expect(history.locator('tbody tr').first().innerText()).resolves.toMatch(/Succeeded[\s\S]*\t3$/);
    const call = api.requests.at(-1);
    expect(call?.url.search).toBe('?station=south&unit=in&depth=7');
    expect(call?.headers['x-token']).toBe(FAKE_TOKEN);
    expect(call?.headers['x-trace']).toBe('browser-journey');
    await screenshot(page, 'connector-setup-connected', 'desktop');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('runs again from the connected profile, where the stored token need not be typed again', async () => {
    const { context, page, errors } = await openPage(browser);
    await logIn(page, DEMO_USER.email, DEMO_USER.password);
    await page.goto(`/connector_profile/${connectorId}`);
    await page.getByRole('heading', { name: 'Existing Dataset Preview' }).waitFor();
    await expect(page.getByRole('button', { name: 'Remove', exact: true }).count()).resolves.toBe(1);
    const before = api.requests.length;
    await page.getByRole('button', { name: 'Run Now' }).click();
    await expectNotice(page, 'Run triggered. This page shows the new data by itself once the run is done.');
    await expectNotice(page, 'Run finished: 3 rows fetched.', 30_000);
    expect(api.requests.length).toBe(before + 1);

    await page.getByLabel('Refresh Interval (minutes)').fill('-1');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await page.getByLabel('Refresh Interval (minutes)').and(page.locator('[aria-invalid="true"]')).waitFor();
    await page.getByLabel('Refresh Interval (minutes)').fill('30');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expectNotice(page, 'Settings saved successfully.');
    const [saved] = (await apiAs<Instance[]>(page, 'GET', 'connectors/my')).filter(
      (candidate) => candidate.connector_id === connectorId,
    );
    expect(saved.refresh_interval).toBe(30);
    // The stored token was kept, settings unchanged.
    expect(saved).toMatchObject({
      has_auth_data: true,
      settings: { station: 'south', filters: { depth: 7 } },
    });

    // The connector's table opens in the SQL workspace from its preview, by its readable name.
    await page.getByRole('link', { name: 'Query', exact: true }).click();
    await page.waitForURL(`**/query?table=${saved.readable_name}`);
    await eventually(
      async () =>
        (await page.locator('.cm-content').innerText()) === `SELECT * FROM ${saved.readable_name} LIMIT 100`,
      'the editor to open on the connector table',
    );
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    // The time is whatever the machine took: milliseconds, or seconds past one.
    await expect(page.getByRole('status', { name: 'Result summary' }).innerText()).resolves.toMatch(
      /^[1-9]\d* rows? in (\d+ ms|\d+\.\d s)$/,
    );
    expect(await gridRowTexts(page.getByRole('grid', { name: 'Query result' }))).not.toHaveLength(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('runs several streams of one connector, each into its own table with its preview, history and links', async () => {
    const { context, page, errors } = await openPage(browser);
    await logIn(page, DEMO_USER.email, DEMO_USER.password);
    const uploaded = await apiAs<{ id: string }>(page, 'POST', 'connectors/upload', {
      title: 'Port Sensors and Stations',
      description: 'Water levels and the station list.',
      is_public: false,
      spec: harbourTwoStreamSpec(api.origin),
    });
    await page.goto(`/connector-setup/${uploaded.id}`);
    await pickOption(page, 'Station', 'north');
    await page.getByLabel('Access token').fill(FAKE_TOKEN);
    const streams = page.getByRole('group', { name: 'Streams' });
    await expect(streams.getByRole('checkbox', { name: 'Readings (readings)' }).isChecked()).resolves.toBe(
      true,
    );
    await expect(streams.getByRole('checkbox', { name: 'Stations (stations)' }).isChecked()).resolves.toBe(
      false,
    );
    // Nothing checked is refused before anything is sent.
    await streams.getByRole('checkbox', { name: 'Readings (readings)' }).uncheck();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await page.getByRole('alert').filter({ hasText: 'Pick at least one stream.' }).waitFor();
    await streams.getByRole('checkbox', { name: 'Readings (readings)' }).check();
    await streams.getByRole('checkbox', { name: 'Stations (stations)' }).check();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expectNotice(page, 'Settings saved successfully.');
    const [instance] = (
      await apiAs<Array<Instance & { operation_ids: string[]; tables: Array<{ operation_id: string }> }>>(
        page,
        'GET',
        'connectors/my',
      )
    ).filter((candidate) => candidate.connector_id === uploaded.id);
    expect(instance.operation_ids).toEqual(['readings', 'stations']);
    expect(instance.tables.map((table) => table.operation_id)).toEqual(['readings', 'stations']);

    const run = page.getByRole('button', { name: 'Run Now' });
    await eventually(async () => !(await run.isDisabled()), 'Run Now to be enabled');
    await run.click();
    await expectNotice(page, `Run finished: ${3 + HARBOUR_STATIONS.length} rows fetched.`, 30_000);
    const readings = await gridRowTexts(
      page.getByRole('grid', { name: 'Existing dataset preview: readings' }),
    );
    expect(readings).toHaveLength(3);
    const stations = await gridRowTexts(
      page.getByRole('grid', { name: 'Existing dataset preview: stations' }),
    );
    expect(stations).toHaveLength(HARBOUR_STATIONS.length);
    expect(stations.join('\n')).toContain('south');
    const perStream = page
      .getByRole('table', { name: 'Run history' })
      .getByRole('list', { name: 'Rows per stream' });
    await expect(perStream.first().innerText()).resolves.toBe(
      `readings: 3 rows\nstations: ${HARBOUR_STATIONS.length} rows`,
    );
    await screenshot(page, 'connector-setup-two-streams', 'desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'connector-setup-two-streams', 'phone');

    await page.goto('/manage');
    await page.getByRole('tab', { name: 'Stream Data' }).click();
    await page.getByRole('button', { name: 'Copy Port Sensors and Stations stations JSON link' }).waitFor();
    const links = await page.locator('section[aria-labelledby="connector-links-heading"]').innerText();
    // Each stream's table shows its readable name (the instance title and the operation), and its
    // links use that name.
    const stationsName = page.getByLabel('Table name of Port Sensors and Stations stations', { exact: true });
    const name = await stationsName.innerText();
    expect(name).toMatch(/^port_sensors_and_stations_stations_[0-9a-f]{4}$/);
    expect(links).toContain(`/api/stream/data/${name}?api_key=`);
    expect(links).not.toMatch(/\/api\/stream\/data\/(table|instance)-/);
    await screenshot(page, 'manage-stream-two-streams', 'phone');
    await apiAs(page, 'POST', `connectors/remove/${instance.id}`, {});
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps the refresh interval for pro users: disabled for a new account', async () => {
    const { context, page, errors } = await openPage(browser);
    const email = uniqueEmail('not-pro');
    await registerAndVerify(page, 'Not Pro', email, 'browser-not-pro-2026');
    await logIn(page, email, 'browser-not-pro-2026');
    // The uploaded connector is private: another user is shown nothing of it.
    await page.goto(`/connector-setup/${connectorId}`);
    await page.getByText('Item not found').waitFor();
    const catalogue = await apiAs<Array<{ id: string; is_public: boolean }>>(page, 'GET', 'connectors');
    const listed = catalogue.find((connector) => connector.is_public);
    expect(catalogue.some((connector) => connector.id === connectorId)).toBe(false);
    await page.goto(`/connector-setup/${listed?.id}`);
    const interval = page.getByLabel('Refresh Interval (minutes)');
    await interval.waitFor();
    await expect(interval.isDisabled()).resolves.toBe(true);
    await page.getByText('Available to pro users.').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('refreshes and removes the connector from Manage', async () => {
    const { context, page, errors } = await openPage(browser);
    await logIn(page, DEMO_USER.email, DEMO_USER.password);
    const active = page.getByRole('list', { name: 'Active connectors' });
    const row = active
      .locator('li')
      .filter({ has: page.getByRole('link', { name: instanceTitle, exact: true }) });
    await row.waitFor();
    await screenshot(page, 'manage-active-connector', 'desktop');
    await row.getByRole('button', { name: `Edit ${instanceTitle}` }).click();
    await expectNotice(page, 'coming soon');
    await row.getByRole('button', { name: `Refresh ${instanceTitle}` }).click();
    await expectNotice(page, 'Connector refreshed with 3 rows.', 30_000);

    // A run whose only answer a response filter ignored says so in the Refresh message.
    const gaps = await apiAs<{ id: string }>(page, 'POST', 'connectors/upload', {
      title: `Harbour gaps ${Date.now()}`,
      spec: {
        protocol: 'http',
        base_url: api.origin,
        operations: [
          {
            id: 'missing',
            name: 'Missing',
            method: 'GET',
            url_path: '/missing',
            response_filters: [{ http_codes: [404], action: 'ignore' }],
          },
        ],
        fields: [],
      },
    });
    const gapsInstance = await apiAs<{ id: string }>(page, 'POST', 'connectors/activate', {
      connector_id: gaps.id,
    });
    const gapsTitle = (await apiAs<Instance[]>(page, 'GET', 'connectors/my')).find(
      (candidate) => candidate.id === gapsInstance.id,
    )?.title as string;
    await page.reload();
    await page.getByRole('button', { name: `Refresh ${gapsTitle}` }).click();
    const ignored = 'Connector refreshed with 0 rows. Ignored 1 response (HTTP 404)';
    await page.locator('.MuiAlert-colorWarning').filter({ hasText: ignored }).waitFor({ timeout: 30_000 });
    await expectNotice(page, ignored);
    await apiAs(page, 'POST', `connectors/remove/${gapsInstance.id}`, {});

    await page.getByRole('tab', { name: 'Uploaded Data' }).click();
    await page
      .getByRole('list', { name: 'Uploaded data' })
      .getByRole('link', { name: 'Harbour Sensors' })
      .waitFor();
    await page.getByRole('tab', { name: 'Active Datasets & Connectors' }).click();
    await row.getByRole('button', { name: `Remove ${instanceTitle}` }).click();
    // It asks first, saying that the table goes with it.
    const confirm = page.getByRole('dialog', { name: 'Remove this connector?' });
    await confirm.getByText(`Removing “${instanceTitle}” deletes its table`).waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await expect(apiAs<Instance[]>(page, 'GET', 'connectors/my')).resolves.toContainEqual(
      expect.objectContaining({ connector_id: connectorId }),
    );
    await row.getByRole('button', { name: `Remove ${instanceTitle}` }).click();
    await confirm.getByRole('button', { name: 'Remove connector' }).click();
    await expectNotice(page, 'Connector removed.');
    await row.waitFor({ state: 'detached' });
    expect(await apiAs<Instance[]>(page, 'GET', 'connectors/my')).not.toContainEqual(
      expect.objectContaining({ connector_id: connectorId }),
    );
    expect(errors).toEqual([]);
    await context.close();
  });

  it('connects a connector without settings from its card, then shows Manage on it', async () => {
    const { context, page, errors } = await openPage(browser);
    await logIn(page, DEMO_USER.email, DEMO_USER.password);
    await page.goto('/datastore');
    const frankfurter = card(page, 'Exchange Rates (Frankfurter)');
    await frankfurter.getByRole('button', { name: 'Connect Exchange Rates (Frankfurter)' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Connect' }).click();
    await expectNotice(page, 'Connector activated!');
    await page.waitForURL('**/datastore');
    await expect(frankfurter.getByRole('button').innerText()).resolves.toBe('Manage');

    await frankfurter.getByRole('link', { name: 'Exchange Rates (Frankfurter)' }).click();
    await page.getByRole('heading', { name: 'Connector setup' }).waitFor();
    await page.getByRole('button', { name: 'Remove', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Remove this connector?' })
      .getByRole('button', { name: 'Remove connector' })
      .click();
    await expectNotice(page, 'Connector removed.');
    await page.getByRole('button', { name: 'Connect', exact: true }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("deletes an uploaded connector from Manage, first saying how many of other users' connections stop", async () => {
    const { context, page, errors } = await openPage(browser);
    const email = uniqueEmail('connector-owner');
    await registerAndVerify(page, 'Cora Connector', email, PASSWORD);
    await logIn(page, email, PASSWORD);
    const title = `Tide gauges ${Date.now()}`;
    const uploaded = await apiAs<{ id: string }>(page, 'POST', 'connectors/upload', {
      title,
      spec: {
        protocol: 'http',
        base_url: api.origin,
        operations: [{ id: 'readings', name: 'Readings', method: 'GET', url_path: '/readings' }],
        fields: [],
      },
    });
    // Two other users connect it, so deleting it stops two connections that are not the owner's.
    for (const name of ['Una', 'Otto']) {
      const { context: otherContext, page: otherPage } = await openPage(browser);
      const otherEmail = uniqueEmail(`connector-user-${name.toLowerCase()}`);
      await registerAndVerify(otherPage, name, otherEmail, PASSWORD);
      await logIn(otherPage, otherEmail, PASSWORD);
      await apiAs(otherPage, 'POST', 'connectors/activate', { connector_id: uploaded.id });
      await otherContext.close();
    }

    await page.goto('/manage?tab=uploaded');
    await page.getByRole('button', { name: `Remove ${title}` }).click();
    const confirm = page.getByRole('dialog', { name: `Delete “${title}”?` });
    await expect(confirm.innerText()).resolves.toContain('2 connections of other users stop.');
    await confirm.getByRole('button', { name: 'Delete connector' }).click();
    await expectNotice(page, 'Connector deleted.');
    await eventually(
      async () => (await page.getByRole('button', { name: `Remove ${title}` }).count()) === 0,
      'the connector to leave the list',
    );
    expect(errors).toEqual([]);
    await context.close();
  });

  describe.each<ViewportName>(['desktop', 'phone'])('at %s width', (viewport) => {
    it('renders the setup screen and the manage screen', async () => {
      const { context, page, errors } = await openPage(browser, viewport);
      await logIn(page, DEMO_USER.email, DEMO_USER.password);
      await page.goto(`/connector-setup/${connectorId}`);
      await page.getByRole('combobox', { name: 'Station' }).waitFor();
      await screenshot(page, 'connector-setup', viewport);
      await page.goto('/manage');
      await page.getByRole('heading', { name: 'Active connectors' }).waitFor();
      await page.waitForLoadState('networkidle');
      await screenshot(page, 'manage-active', viewport);
      expect(errors).toEqual([]);
      await context.close();
    });
  });
});
