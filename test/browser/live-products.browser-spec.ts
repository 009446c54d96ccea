import type { Browser, Page } from 'playwright-core';
import { FakeUpstream, sendJson, startFakeUpstream } from '../connectors/support/fake-upstream';
import { createVerifiedAccount, freshEmail, horizontalOverflow } from './support/accounts';
import { launchBrowser, openPage, screenshot, ViewportName } from './support/browser';
import { apiAs, card, DEMO_USER, eventually, expectNotice, gridRowTexts, logIn } from './support/journey';

const PASSWORD = 'browser-live-2026';

interface Instance {
  id: string;
  title: string;
  tables: Array<{ readable_name: string }>;
}

/** A tide gauge API on loopback: each path answers the rows it was last given, so a test can change their shape. */
function startGaugeApi() {
  const answers = new Map<string, unknown[]>();
  const started = startFakeUpstream((request, response) => {
    const rows = answers.get(request.url.pathname);
    return rows ? sendJson(response, { data: rows }) : sendJson(response, { error: 'not found' }, 404);
  });
  return { started, answers };
}

const gaugeRows = [
  { station: 'north', level_cm: 120, unit: 'cm' },
  { station: 'south', level_cm: 95, unit: 'cm' },
];

/**
 * Runs the connection and waits for the run's end: under load the server may stop waiting and
 * answer with the run's id while it goes on.
 */
async function runToEnd(page: Page, instanceId: string): Promise<void> {
  const started = await apiAs<{ run_id?: string }>(page, 'POST', `connectors/run/${instanceId}`);
  if (!started.run_id) return;
  await eventually(
    async () => {
      const runs = await apiAs<Array<{ id: string; status: string }>>(
        page,
        'GET',
        `connectors/instance/${instanceId}/runs`,
      );
      return runs.find((run) => run.id === started.run_id)?.status !== 'running';
    },
    'the run to end',
    60_000,
  );
}

/**
 * The demo user (pro, so the connection may have a schedule) uploads a private connector for
 * `path`, connects it to refresh every 60 minutes and runs it once, so its table has rows.
 */
async function connectionWithRows(page: Page, origin: string, path: string): Promise<Instance> {
  const connector = await apiAs<{ id: string }>(page, 'POST', 'connectors/upload', {
    title: `Tide gauges ${path}`,
    is_public: false,
    spec: {
      protocol: 'http',
      base_url: origin,
      operations: [
        {
          id: 'levels',
          name: 'Levels',
          method: 'GET',
          url_path: path,
          response_path: 'data',
          pagination: { type: 'none' },
        },
      ],
      fields: [],
    },
  });
  const { id } = await apiAs<{ id: string }>(page, 'POST', 'connectors/activate', {
    connector_id: connector.id,
    settings: { override: true },
  });
  await apiAs(page, 'PATCH', `connectors/instance/${id}`, { refresh_interval: 60 });
  await runToEnd(page, id);
  const instances = await apiAs<Instance[]>(page, 'GET', 'connectors/my');
  return instances.find((instance) => instance.id === id) as Instance;
}

/** From Manage: opens Publish on the connection's row, checks the form's messages, and publishes. */
async function publishFromManage(page: Page, instance: Instance, title: string, viewport: ViewportName) {
  await page.goto('/manage');
  const publish = page.getByRole('button', { name: `Publish ${instance.title}`, exact: true });
  await publish.waitFor();
  expect(await horizontalOverflow(page)).toBe(0);
  await screenshot(page, 'live-manage-publish', viewport);
  await publish.click();
  const dialog = page.getByRole('dialog', { name: `Publish “${instance.tables[0].readable_name}”` });
  // The dictionary lists the table's columns, without the connector's bookkeeping.
  await dialog.getByLabel('station (text)').waitFor();
  await expect(dialog.getByLabel(/^_run_id/).count()).resolves.toBe(0);
  await expect(dialog.getByLabel('Title').inputValue()).resolves.toBe(instance.title);

  await dialog.getByLabel('Title').fill('');
  await dialog.getByLabel('Price').fill('1.999');
  await dialog.getByRole('button', { name: 'Publish' }).click();
  await dialog.getByText('Give the listing a title.').waitFor();
  await dialog.getByText('Price must be a non-negative amount with at most two decimals.').waitFor();

  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Description').fill('Water levels of the harbour gauges, hourly.');
  await dialog.getByLabel('Category').fill('Science');
  await dialog.getByLabel('Keywords').fill('tides, harbour');
  await dialog.getByLabel('License').click();
  await page.getByRole('option', { name: 'Creative Commons Attribution 4.0 (CC-BY-4.0)' }).click();
  await dialog.getByLabel('Price').fill('0');
  await dialog.getByText('Give the listing a title.').waitFor({ state: 'detached' });
  await expect(dialog.getByText(/^Price must be/).count()).resolves.toBe(0);
  await dialog.getByLabel('station (text)').fill('Gauge station');
  await dialog.getByLabel(/^level_cm/).fill('Water level in centimetres');
  await screenshot(page, 'live-publish-dialog', viewport);
  await dialog.getByRole('button', { name: 'Publish' }).click();
  await expectNotice(page, 'Published. Subscribers get every refresh of this table.');
  await page.waitForURL(/\/dataset_profile\/[0-9a-f-]{36}$/);
  return page.url().split('/').pop() as string;
}

describe('live datasets in a browser', () => {
  let browser: Browser;
  let api: FakeUpstream;
  let answers: Map<string, unknown[]>;

  beforeAll(async () => {
    browser = await launchBrowser();
    const gauges = startGaugeApi();
    api = await gauges.started;
    answers = gauges.answers;
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  describe.each<ViewportName>(['desktop', 'phone'])('at %s width', (viewport) => {
    it('the owner publishes a table from Manage; another user finds it with Live only, gets it and reads its rows', async () => {
      const path = `/levels-${viewport}`;
      answers.set(path, gaugeRows);
      const title = `Harbour levels live ${viewport} ${Date.now()}`;
      const owner = await openPage(browser, viewport);
      await logIn(owner.page, DEMO_USER.email, DEMO_USER.password);
      const instance = await connectionWithRows(owner.page, api.origin, path);
      const assetId = await publishFromManage(owner.page, instance, title, viewport);

      // The owner's page: Live badge, schedule, freshness with the exact time on hover.
      const { page } = owner;
      await page.getByRole('heading', { name: title, level: 1 }).waitFor();
      await page.locator('main header').getByText('Live', { exact: true }).waitFor();
      const live = page.locator('section[aria-labelledby="live-heading"]');
      await live.getByText('Refreshes every 60 minutes').waitFor();
      const updated = live.getByText('Updated just now');
      await updated.hover();
      const exact = await page.getByRole('tooltip').innerText();
      expect(exact).toMatch(/\d/);
      await expect(live.locator('time').getAttribute('datetime')).resolves.toMatch(/^\d{4}-\d\d-\d\dT/);
      await page.getByRole('table', { name: 'Data dictionary' }).getByText('Gauge station').waitFor();
      await page.getByRole('button', { name: 'Unpublish' }).waitFor();
      await page.mouse.move(0, 0);
      expect(await horizontalOverflow(page)).toBe(0);
      await screenshot(page, 'live-product-owner', viewport);

      // Another user: the catalogue's Live only filter, the card's badge and freshness, then Get.
      const other = await openPage(browser, viewport);
      const email = freshEmail(`live-subscriber-${viewport}`);
      await createVerifiedAccount('Sam Subscriber', email, PASSWORD);
      await logIn(other.page, email, PASSWORD);
      await other.page.goto('/datastore');
      // The category counts follow the filter: the server counts only live datasets.
      const liveCounts = other.page.waitForRequest((request) => {
        const url = new URL(request.url());
        return url.pathname === '/api/assets/facets' && url.searchParams.get('live') === 'true';
      });
      // The filter lives in the address: the box shows checked once the router has moved there.
      await other.page.getByLabel('Live only').click();
      await liveCounts;
      await other.page.waitForURL(/live=1/);
      await eventually(() => other.page.getByLabel('Live only').isChecked(), 'Live only to be checked');
      await other.page.getByRole('combobox', { name: 'Sort by' }).click();
      await other.page.getByRole('option', { name: 'Recently updated' }).click();
      await other.page.waitForURL(/sort=updated/);
      await other.page.getByRole('listbox').waitFor({ state: 'detached' });
      const listing = card(other.page, title);
      await listing.waitFor();
      await eventually(
        async () => (await other.page.locator('article').count()) > 0,
        'the live results to show',
      );
      // Live only: every card shown is a live dataset, no connector among them.
      const cards = await other.page.locator('article').all();
      for (const shown of cards) await shown.getByText('Live', { exact: true }).waitFor();
      await listing.getByText('Updated just now').waitFor();
      expect(await horizontalOverflow(other.page)).toBe(0);
      await screenshot(other.page, 'live-products-datastore', viewport);

      await listing.getByRole('button', { name: `Get ${title}` }).click();
      await expectNotice(other.page, 'Access granted!');
      await other.page.goto(`/dataset_profile/${assetId}`);
      await other.page.locator('main header').getByText('Live', { exact: true }).waitFor();
      await other.page.getByText('Refreshes every 60 minutes').waitFor();
      // A subscriber sees no owner's controls.
      await expect(other.page.getByRole('button', { name: 'Unpublish' }).count()).resolves.toBe(0);
      const rows = await gridRowTexts(other.page.getByRole('grid', { name: 'Dataset rows' }));
      expect(rows).toHaveLength(2);
      expect(rows.join('\n')).toContain('north');
      expect(await horizontalOverflow(other.page)).toBe(0);
      await screenshot(other.page, 'live-product-subscriber', viewport);
      await other.page.goto('/manage');
      await other.page
        .getByRole('list', { name: 'Accessible datasets' })
        .locator('li')
        .filter({ has: other.page.getByRole('link', { name: title, exact: true }) })
        .getByText('Live', { exact: true })
        .waitFor();
      expect(other.errors).toEqual([]);
      await other.context.close();

      // The connection cannot go while it feeds the listing: the server says which.
      await page.goto('/manage');
      // Published once: the table's row links to its listing rather than offering Publish again.
      await page.getByRole('link', { name: `View the listing “${title}” of ${instance.title}` }).waitFor();
      await expect(
        page.getByRole('button', { name: `Publish ${instance.title}`, exact: true }).count(),
      ).resolves.toBe(0);
      await page.getByRole('button', { name: `Remove ${instance.title}`, exact: true }).click();
      await page
        .getByRole('dialog', { name: 'Remove this connector?' })
        .getByRole('button', { name: 'Remove connector' })
        .click();
      await expectNotice(page, `This connection feeds the published dataset “${title}”: unpublish it first.`);
      expect(owner.errors).toEqual([]);
      await owner.context.close();
    });
  });

  it('the owner reviews a held schema change and accepts it, then unpublishes and can remove the connection', async () => {
    const path = '/levels-schema';
    answers.set(path, gaugeRows);
    const title = `Harbour levels reshaped ${Date.now()}`;
    const { context, page, errors } = await openPage(browser);
    await logIn(page, DEMO_USER.email, DEMO_USER.password);
    const instance = await connectionWithRows(page, api.origin, path);
    const published = await apiAs<{ id: string }>(
      page,
      'POST',
      `connectors/instance/${instance.id}/publish`,
      {
        table: instance.tables[0].readable_name,
        title,
      },
    );

    // The upstream drops `unit` and adds `salinity`: the refresh is held for the owner's decision.
    answers.set(path, [
      { station: 'north', level_cm: 118, salinity: 3.1 },
      { station: 'south', level_cm: 97, salinity: 2.9 },
    ]);
    await runToEnd(page, instance.id);
    // The held outcome is recorded when the run ends; the page shows what is recorded when it loads.
    await eventually(async () => {
      const detail = await apiAs<{ live: { runs: Array<{ outcome: string }> } }>(
        page,
        'GET',
        `assets/${published.id}`,
      );
      return detail.live.runs[0]?.outcome === 'schema_change';
    }, 'the refresh to be held');
    await page.goto(`/dataset_profile/${published.id}`);
    const held = page.getByRole('region', { name: 'Schema change held: 1 column dropped, 1 added' });
    await held.waitFor();
    const changes = await held
      .getByRole('table', { name: 'Column changes' })
      .locator('tbody tr')
      .allInnerTexts();
    expect(changes.map((row) => row.replace(/\s+/g, ' ').trim())).toEqual([
      'unit Dropped text',
      'salinity Added numeric',
    ]);
    await page.getByRole('list', { name: 'Last refreshes' }).getByText('Schema change').waitFor();
    await screenshot(page, 'live-product-schema-change', 'desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, 'live-product-schema-change', 'phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    // The preview's rows come back last (as on a busy server): the panel is gone by then, and the
    // notice must still show.
    const slowRows = `**/api/assets/${published.id}/data?*`;
    await page.route(slowRows, async (route) => {
      await new Promise((wait) => setTimeout(wait, 1_500));
      await route.continue();
    });
    await held.getByRole('button', { name: 'Accept change' }).click();
    await expectNotice(page, 'Schema change accepted: the new columns are published.');
    await page.unroute(slowRows);
    await held.waitFor({ state: 'detached' });
    const dictionary = page.getByRole('table', { name: 'Data dictionary' });
    await dictionary
      .getByRole('row', { name: /salinity/ })
      .getByText('New', { exact: true })
      .waitFor();

    await page.getByRole('button', { name: 'Unpublish' }).click();
    const confirm = page.getByRole('dialog', { name: `Unpublish “${title}”?` });
    await confirm.getByText('Your connection and its table stay.', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Unpublish' }).click();
    await expectNotice(page, 'Unpublished.');
    await page.waitForURL('**/manage');
    // Unpublished, the table may be published again.
    await page.getByRole('button', { name: `Publish ${instance.title}`, exact: true }).waitFor();
    await page.getByRole('button', { name: `Remove ${instance.title}`, exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Remove this connector?' })
      .getByRole('button', { name: 'Remove connector' })
      .click();
    await expectNotice(page, 'Connector removed.');
    expect(errors).toEqual([]);
    await context.close();
  });
});
