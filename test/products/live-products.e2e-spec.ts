import { ConnectorLifecycle } from '../../src/connectors/runs/run-end-listeners';
import { ProductFreshnessService } from '../../src/products/product-freshness.service';
import { FakeUpstream, sendJson, startFakeUpstream } from '../connectors/support/fake-upstream';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import {
  Agent,
  connectionWithRows,
  noticesOf,
  post,
  publish,
  runNow,
  subscriberOf,
} from './support/live-product';

/** What each fake upstream path answers next; tests change it. */
const answers = new Map<string, { status: number; body: unknown }>();
const UPSTREAM_TOKEN_URL = 'token=upstream-secret-4711';

describe('live products: publish, refresh, read through every path', () => {
  let testApp: TestApp;
  let upstream: FakeUpstream;
  let path = 0;

  beforeAll(async () => {
    upstream = await startFakeUpstream((request, response) => {
      const answer = answers.get(request.url.pathname) ?? { status: 404, body: [] };
      return sendJson(response, answer.body, answer.status);
    });
    testApp = await createTestApp({ CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' });
  });
  afterAll(async () => {
    await testApp.close();
    await upstream.close();
  });

  /** A fresh upstream path answering `body`. */
  function upstreamPath(body: unknown): { path: string; answer: (body: unknown, status?: number) => void } {
    const name = `/items-${++path}`;
    answers.set(name, { status: 200, body });
    return { path: name, answer: (next, status = 200) => answers.set(name, { status, body: next }) };
  }

  const detail = (agent: Agent, id: string) => agent.get(`/api/assets/${id}`).expect(200);

  it('publishes a table; after a refresh the subscriber reads the new rows by stream, OData and query', async () => {
    const source = upstreamPath([
      { city: 'Berlin', population: 3_600_000 },
      { city: 'Paris', population: 2_100_000 },
    ]);
    const connection = await connectionWithRows(testApp, upstream.origin, source.path);
    const id = await publish(connection, {
      description: 'Cities, refreshed hourly',
      dictionary: { city: 'Name of the city' },
    });
    const subscriber = await subscriberOf(testApp, id);

    const published = (await detail(subscriber.agent, id)).body;
    expect(published.columns.map((column: { name: string }) => column.name)).toEqual(['city', 'population']);
    expect(published.dictionary).toEqual({ city: 'Name of the city' });
    expect(published.row_count).toBe(2);
    expect(published.live).toMatchObject({
      interval_minutes: 0,
      stale_since: null,
      runs: [],
      new_columns: [],
    });

    source.answer([
      { city: 'Berlin', population: 3_700_000 },
      { city: 'Paris', population: 2_200_000 },
      { city: 'Rome', population: 2_800_000 },
    ]);
    expect(await runNow(connection.owner.agent, connection.instanceId)).toBe(200);

    const refreshed = (await detail(subscriber.agent, id)).body;
    expect(refreshed.row_count).toBe(3);
    // Size follows the rows (not the table's 8 KB pages, which read the same for 2 rows or 200).
    expect(refreshed.byte_count).toBeGreaterThan(published.byte_count);
    expect(refreshed.byte_count).toBeLessThan(8192);
    expect(refreshed.versions[0].byte_count).toBe(refreshed.byte_count);
    expect(refreshed.versions.map((version: { mode: string }) => version.mode)).toEqual([
      'replace',
      'initial',
    ]);
    expect(refreshed.live.runs).toEqual([
      { finished_at: expect.any(String), outcome: 'updated', row_count: 3 },
    ]);
    const name = refreshed.readable_name;

    const json = await testApp.http
      .get(`/api/stream/data/${name}`)
      .query({ api_key: subscriber.key })
      .expect(200);
    expect(json.body.map((row: { city: string }) => row.city).sort()).toEqual(['Berlin', 'Paris', 'Rome']);
    const ndjson = await testApp.http
      .get(`/api/stream/data/${name}`)
      .query({ api_key: subscriber.key, format: 'ndjson' })
      .expect(200);
    expect(ndjson.text.trim().split('\n')).toHaveLength(3);
    const csv = await testApp.http
      .get(`/api/stream/data/${name}`)
      .query({ api_key: subscriber.key, format: 'csv' })
      .expect(200);
    expect(csv.text).toContain('Rome');
    const odata = await testApp.http.get(`/api/odata/${name}`).query({ api_key: subscriber.key }).expect(200);
    expect(odata.body.value).toHaveLength(3);
    expect(JSON.stringify(odata.body.value)).not.toContain('_run_id');
    const query = await post(subscriber.agent, '/api/query', {
      sql: `SELECT city, population FROM ${name} WHERE city = 'Rome'`,
    }).expect(200);
    expect(query.body.rows).toEqual([['Rome', 2_800_000]]);
  });

  it('a run that brings nothing new adds no version; a new column is published and shown as new', async () => {
    const source = upstreamPath([{ code: 'A', value: 1 }]);
    // Appending: a run whose answer is empty leaves the table as it was.
    const connection = await connectionWithRows(testApp, upstream.origin, source.path, false);
    const id = await publish(connection);
    const subscriber = await subscriberOf(testApp, id);

    source.answer([]);
    expect(await runNow(connection.owner.agent, connection.instanceId)).toBe(200);
    const unchanged = (await detail(subscriber.agent, id)).body;
    expect(unchanged.live.runs.map((run: { outcome: string }) => run.outcome)).toEqual(['unchanged']);
    expect(unchanged.versions).toHaveLength(1);

    source.answer([{ code: 'B', value: 2, unit: 'kg' }]);
    expect(await runNow(connection.owner.agent, connection.instanceId)).toBe(200);
    const body = (await detail(subscriber.agent, id)).body;
    expect(body.columns.map((column: { name: string }) => column.name)).toEqual(['code', 'value', 'unit']);
    expect(body.live.new_columns).toEqual(['unit']);
    // Subscribers are told of the new column, once.
    const added = await noticesOf(testApp, subscriber.user.id, 'product_schema_change');
    expect(added).toHaveLength(1);
    expect(added[0].subject).toMatch(/new columns$/);
    expect(added[0].text).toContain('added a column: unit');
    expect(body.versions).toHaveLength(2);
    const rows = await testApp.http
      .get(`/api/stream/data/${body.readable_name}`)
      .query({ api_key: subscriber.key });
    expect(rows.body).toEqual([
      { code: 'A', value: 1, unit: null },
      { code: 'B', value: 2, unit: 'kg' },
    ]);
  });

  it('refuses to publish what is not the owner’s, an unknown table, a table twice, or a missing title', async () => {
    const source = upstreamPath([{ code: 'A' }]);
    const connection = await connectionWithRows(testApp, upstream.origin, source.path);
    const url = `/api/connectors/instance/${connection.instanceId}/publish`;
    const stranger = await createLoggedInUser(testApp);
    const refused = await post(stranger.agent, url, { table: connection.table, title: 'Mine now' }).expect(
      404,
    );
    expect(refused.body.error).toBe('Connector instance not found');
    await testApp.http
      .post(url)
      .set('Origin', TEST_ORIGIN)
      .send({ table: connection.table, title: 'x' })
      .expect(401);
    const unknown = await post(connection.owner.agent, url, { table: 'no_such_table', title: 'x' }).expect(
      400,
    );
    expect(unknown.body.error).toBe('The connection has no table "no_such_table".');
    const untitled = await post(connection.owner.agent, url, { table: connection.table }).expect(400);
    expect(untitled.body.error).toContain('Title is required');
    const badDictionary = await post(connection.owner.agent, url, {
      table: connection.table,
      title: 'x',
      dictionary: { nope: 'text' },
    }).expect(400);
    expect(badDictionary.body.error).toBe('The dataset has no column "nope".');
    await publish(connection, { title: 'First listing' });
    const twice = await post(connection.owner.agent, url, { table: connection.table, title: 'Again' }).expect(
      409,
    );
    expect(twice.body.error).toBe(`The table "${connection.table}" is already published as "First listing".`);
  });

  it('a failing upstream keeps the data, turns stale once (notice to holder and owner), and recovers once', async () => {
    const source = upstreamPath([{ station: 'S1', level: 3 }]);
    const connection = await connectionWithRows(testApp, upstream.origin, source.path);
    await connection.owner.agent
      .patch(`/api/connectors/instance/${connection.instanceId}`)
      .set('Origin', TEST_ORIGIN)
      .send({ refresh_interval: 60 })
      .expect(200);
    const id = await publish(connection);
    const subscriber = await subscriberOf(testApp, id);

    source.answer({ message: `upstream broke, ${UPSTREAM_TOKEN_URL}` }, 500);
    expect(await runNow(connection.owner.agent, connection.instanceId)).toBe(502);
    const afterFailure = (await detail(subscriber.agent, id)).body;
    expect(afterFailure.row_count).toBe(1);
    expect(afterFailure.live.runs).toEqual([
      { finished_at: expect.any(String), outcome: 'failed', row_count: 1 },
    ]);
    expect(JSON.stringify(afterFailure)).not.toContain('upstream-secret');
    const ownerView = (await detail(connection.owner.agent, id)).body;
    expect(ownerView.live.runs[0].error).toEqual(expect.any(String));
    expect(ownerView.live.instance_id).toBe(connection.instanceId);

    const freshness = testApp.app.get(ProductFreshnessService);
    expect(await freshness.tick()).not.toContain(id);
    // Two hours without a good refresh: past the 60-minute interval and its 60-minute grace.
    await testApp.dataSource.query(
      `UPDATE live_products SET last_refreshed_at = now() - interval '2 hours' WHERE asset_id = $1`,
      [id],
    );
    expect(await freshness.tick()).toContain(id);
    expect(await freshness.tick()).not.toContain(id);

    const stale = (await detail(subscriber.agent, id)).body;
    expect(stale.live.stale_since).toEqual(expect.any(String));
    expect(stale.stale_since).toBe(stale.live.stale_since);
    const subscriberStale = await noticesOf(testApp, subscriber.user.id, 'product_stale');
    expect(subscriberStale).toHaveLength(1);
    expect(subscriberStale[0].subject).toBe(`${stale.title} is stale`);
    expect(subscriberStale[0].text).not.toContain('failed');
    const ownerStale = await noticesOf(testApp, connection.owner.user.id, 'product_stale');
    expect(ownerStale).toHaveLength(1);
    expect(ownerStale[0].text).toContain('The last refresh failed:');

    source.answer([{ station: 'S1', level: 4 }]);
    expect(await runNow(connection.owner.agent, connection.instanceId)).toBe(200);
    expect(await runNow(connection.owner.agent, connection.instanceId)).toBe(200);
    const recovered = (await detail(subscriber.agent, id)).body;
    expect(recovered.live.stale_since).toBeNull();
    expect(await noticesOf(testApp, subscriber.user.id, 'product_recovered')).toHaveLength(1);
    expect(await noticesOf(testApp, connection.owner.user.id, 'product_recovered')).toHaveLength(1);
    expect(await noticesOf(testApp, subscriber.user.id, 'product_stale')).toHaveLength(1);
  });

  it('a run whose refresh was never applied (its process stopped) is applied by the next freshness pass', async () => {
    const source = upstreamPath([{ id: 1 }]);
    const connection = await connectionWithRows(testApp, upstream.origin, source.path);
    const id = await publish(connection);
    source.answer([{ id: 1 }, { id: 2 }]);
    // The process stops right after recording the run's end: nothing hears of it.
    const lifecycle = testApp.app.get(ConnectorLifecycle);
    const unheard = jest.spyOn(lifecycle, 'runEnded').mockResolvedValueOnce(undefined);
    expect(await runNow(connection.owner.agent, connection.instanceId)).toBe(200);
    unheard.mockRestore();
    expect((await detail(connection.owner.agent, id)).body.row_count).toBe(1);

    await testApp.app.get(ProductFreshnessService).tick();
    const caughtUp = (await detail(connection.owner.agent, id)).body;
    expect(caughtUp.row_count).toBe(2);
    expect(caughtUp.live.runs.map((run: { outcome: string }) => run.outcome)).toEqual(['updated']);
    await testApp.app.get(ProductFreshnessService).tick();
    expect((await detail(connection.owner.agent, id)).body.versions).toHaveLength(2);
  });

  it('holds a run that drops a published column until the owner accepts it; holders are told', async () => {
    const source = upstreamPath([{ sku: 'X1', price: 10, colour: 'red' }]);
    const connection = await connectionWithRows(testApp, upstream.origin, source.path);
    const id = await publish(connection);
    const subscriber = await subscriberOf(testApp, id);
    const name = (await detail(subscriber.agent, id)).body.readable_name;
    await post(connection.owner.agent, `/api/products/${id}/schema-change/accept`).expect(409);

    source.answer([{ sku: 'X1', price: 'ten' }]);
    expect(await runNow(connection.owner.agent, connection.instanceId)).toBe(200);
    const held = (await detail(subscriber.agent, id)).body;
    expect(held.live.runs[0].outcome).toBe('schema_change');
    expect(held.live).not.toHaveProperty('pending_schema_change');
    const rows = await testApp.http.get(`/api/stream/data/${name}`).query({ api_key: subscriber.key });
    expect(rows.body).toEqual([{ sku: 'X1', price: 10, colour: 'red' }]);
    const ownerView = (await detail(connection.owner.agent, id)).body;
    expect(ownerView.live.pending_schema_change).toEqual({
      detected_at: expect.any(String),
      added: [],
      dropped: [{ name: 'colour', type: 'text' }],
      retyped: [{ name: 'price', from: 'numeric', to: 'text' }],
    });
    expect(await noticesOf(testApp, connection.owner.user.id, 'product_schema_change')).toHaveLength(1);
    expect(await noticesOf(testApp, subscriber.user.id, 'product_schema_change')).toHaveLength(0);

    await post(subscriber.agent, `/api/products/${id}/schema-change/accept`).expect(403);
    const accepted = await post(connection.owner.agent, `/api/products/${id}/schema-change/accept`).expect(
      200,
    );
    expect(accepted.body.message).toBe('Schema change accepted: the new columns are published.');
    const told = await noticesOf(testApp, subscriber.user.id, 'product_schema_change');
    expect(told).toHaveLength(1);
    expect(told[0].text).toContain('dropped: colour; retyped: price (numeric → text)');
    const after = await testApp.http.get(`/api/stream/data/${name}`).query({ api_key: subscriber.key });
    expect(after.body).toEqual([{ sku: 'X1', price: 'ten' }]);
    expect((await detail(connection.owner.agent, id)).body.live.pending_schema_change).toBeNull();
  });

  it('dismissing a held change keeps the published data; the next run is checked again', async () => {
    const source = upstreamPath([{ k: 1, v: 'a' }]);
    const connection = await connectionWithRows(testApp, upstream.origin, source.path);
    const id = await publish(connection);
    source.answer([{ k: 1 }]);
    await runNow(connection.owner.agent, connection.instanceId);
    const dismissed = await post(connection.owner.agent, `/api/products/${id}/schema-change/dismiss`).expect(
      200,
    );
    expect(dismissed.body.message).toBe('Schema change dismissed: the published data stays as it was.');
    expect((await detail(connection.owner.agent, id)).body.live.pending_schema_change).toBeNull();
    await runNow(connection.owner.agent, connection.instanceId);
    const again = (await detail(connection.owner.agent, id)).body;
    expect(again.live.pending_schema_change.dropped).toEqual([{ name: 'v', type: 'text' }]);
    expect(again.columns.map((column: { name: string }) => column.name)).toEqual(['k', 'v']);
  });

  it('the connection cannot go while it feeds a product; deleting the product tells holders, then it can', async () => {
    const source = upstreamPath([{ n: 1 }]);
    const connection = await connectionWithRows(testApp, upstream.origin, source.path);
    const id = await publish(connection, { title: 'Feeds a listing' });
    const subscriber = await subscriberOf(testApp, id);
    const refused = await post(
      connection.owner.agent,
      `/api/connectors/remove/${connection.instanceId}`,
    ).expect(409);
    expect(refused.body.error).toBe(
      'This connection feeds the published dataset “Feeds a listing”: unpublish it first.',
    );
    const connectorRefused = await connection.owner.agent
      .delete(`/api/connectors/${connection.connectorId}`)
      .set('Origin', TEST_ORIGIN)
      .expect(409);
    expect(connectorRefused.body.error).toBe(refused.body.error);

    await connection.owner.agent.delete(`/api/assets/${id}`).set('Origin', TEST_ORIGIN).expect(200);
    const ended = await noticesOf(testApp, subscriber.user.id, 'product_ended');
    expect(ended).toEqual([{ subject: 'Feeds a listing is no longer published', text: expect.any(String) }]);
    // The listing is gone: the notice links to the catalogue, not to it.
    expect(ended[0].text).not.toContain(`/dataset_profile/${id}`);
    expect(ended[0].text).toContain('/datastore');
    await subscriber.agent.get(`/api/assets/${id}`).expect(404);
    await post(connection.owner.agent, `/api/connectors/remove/${connection.instanceId}`).expect(200);
  });

  it('the catalogue marks live datasets, filters them (live=true) and sorts by last update (sort=updated)', async () => {
    const source = upstreamPath([{ n: 1 }]);
    const connection = await connectionWithRows(testApp, upstream.origin, source.path);
    const id = await publish(connection, { title: 'Catalogue live one' });
    const items: Array<Record<string, unknown>> = (
      await testApp.http.get('/api/assets').query({ live: 'true', limit: 1000 }).expect(200)
    ).body;
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((item) => item.live === true)).toBe(true);
    expect(items.find((item) => item.id === id)).toMatchObject({ live: true, stale_since: null });

    source.answer([{ n: 2 }]);
    await runNow(connection.owner.agent, connection.instanceId);
    const [first] = (await testApp.http.get('/api/assets').query({ sort: 'updated', limit: 1 }).expect(200))
      .body;
    expect(first.id).toBe(id);
    await testApp.http.get('/api/assets').query({ live: 'maybe' }).expect(400);
  });

  it('the owner’s connections name the listing each table is published as, until it is unpublished', async () => {
    const connection = await connectionWithRows(testApp, upstream.origin, upstreamPath([{ n: 1 }]).path);
    const tableOf = async () => {
      const mine: Array<{ id: string; tables: Array<{ readable_name: string; published_as: unknown }> }> = (
        await connection.owner.agent.get('/api/connectors/my').expect(200)
      ).body;
      const instance = mine.find((each) => each.id === connection.instanceId)!;
      return instance.tables.find((table) => table.readable_name === connection.table)!;
    };
    expect((await tableOf()).published_as).toBeNull();

    const id = await publish(connection, { title: 'Listed from its table' });
    expect((await tableOf()).published_as).toEqual({ id, title: 'Listed from its table' });

    await connection.owner.agent.delete(`/api/assets/${id}`).set('Origin', TEST_ORIGIN).expect(200);
    expect((await tableOf()).published_as).toBeNull();
  });

  it('the category counts follow Live only (facets with live=true count only live datasets)', async () => {
    const word = `facetword${Date.now().toString(36)}`;
    const connection = await connectionWithRows(testApp, upstream.origin, upstreamPath([{ n: 1 }]).path);
    await publish(connection, { title: `Live ${word}`, category: 'Transport' });
    await uploadDataset(connection.owner.agent, { title: `Static ${word}`, category: 'Economy' });
    const facets = async (query: object) =>
      (
        await testApp.http
          .get('/api/assets/facets')
          .query({ search: word, ...query })
          .expect(200)
      ).body;

    expect(await facets({})).toEqual([
      { category: 'Economy', count: 1 },
      { category: 'Transport', count: 1 },
    ]);
    expect(await facets({ live: 'true' })).toEqual([{ category: 'Transport', count: 1 }]);
    await testApp.http.get('/api/assets/facets').query({ live: 'maybe' }).expect(400);
  });
});
