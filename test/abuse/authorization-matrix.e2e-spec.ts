import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { postCsv, uploadDataset } from '../factories/asset.factory';
import { createConnector, simpleSpec } from '../factories/connector.factory';
import { createPost } from '../factories/blog.factory';
import { createLoggedInUser, TestUser } from '../factories/user.factory';
import { FakeUpstream, sendJson, startFakeUpstream } from '../connectors/support/fake-upstream';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { formerEntitySetName } from '../../src/odata/odata-entity-set';
import { expectUnchanged } from './support/footprint';

type Agent = TestAgent<Test>;
type Actor = 'visitor' | 'other' | 'owner';
const ACTORS: Actor[] = ['visitor', 'other', 'owner'];
const LOGIN_REQUIRED = 'Please log in to continue';
const STATIC_SECRET = 'owner-static-api-key-4711';
const DATASET_OWNER_ONLY = 'Only the owner can manage this dataset';
const CONNECTOR_OWNER_ONLY = 'Only the owner can manage this connector';

type Row = [call: string, actor: Actor, send: () => PromiseLike<Response>, status: number, message?: string];
interface Response {
  status: number;
  body: { error?: string };
}

/** Named columns for it.each, so titles read "<call> as <actor> answers <status>". */
function matrix(rows: Row[]) {
  return rows.map(([call, actor, send, status, message]) => ({ call, actor, send, status, message }));
}

/**
 * Every API call (docs/product.md, The API) as a visitor, as another logged-in user and as the owner (or holder).
 * What someone else may not see answers exactly like what does not exist (404); an owner-only
 * call on what they can see answers 403; a refused call leaves the owner's data as it was.
 */
/** The live product's connection: its secret must reach no answer but its owner's own views. */
const LIVE_SECRET = 'live-source-secret-0815';

describe('abuse: authorisation matrix of the API', () => {
  /** Makes the fake upstream fail (a live product's failed refresh). */
  let upstreamFails = false;
  let testApp: TestApp;
  let upstream: FakeUpstream;
  let owner: { user: TestUser; agent: Agent };
  let other: { user: TestUser; agent: Agent };
  let ownerKey: string;
  let otherKey: string;
  let privateAssetId: string;
  let paidAssetId: string;
  let connectorId: string;
  let instanceId: string;
  let tableName: string;
  let postSlug: string;
  let privateConnectorId: string;
  let secretConnectorId: string;
  let ownerTokenId: string;
  let ownerSavedQueryId: string;

  const agentOf = (actor: Actor): Agent =>
    actor === 'visitor' ? (testApp.http as unknown as Agent) : actor === 'other' ? other.agent : owner.agent;
  const keyOf = (actor: Actor) => (actor === 'owner' ? ownerKey : actor === 'other' ? otherKey : undefined);
  /** An OData call with the actor's key (none for a visitor); its error body's code is what the matrix reads. */
  const odataAs = (actor: Actor, path: () => string) => () =>
    agentOf('visitor')
      .get(`/api/odata${path()}`)
      .query(keyOf(actor) ? { api_key: keyOf(actor) } : {})
      .then((response) => ({ status: response.status, body: { error: response.body?.error?.code } }));
  const privateSet = () => formerEntitySetName({ kind: 'asset', id: privateAssetId });
  const paidSet = () => formerEntitySetName({ kind: 'asset', id: paidAssetId });
  const instanceSet = () => formerEntitySetName({ kind: 'instance', id: instanceId });
  const post = (actor: Actor, url: string, body: object = {}) =>
    agentOf(actor).post(url).set('Origin', TEST_ORIGIN).send(body);
  /** The id the Sessions list gives the owner's own session. */
  const ownerSessionId = async (): Promise<string> =>
    (await owner.agent.get('/api/users/sessions').expect(200)).body[0].id;

  beforeAll(async () => {
    upstream = await startFakeUpstream((_request, response) =>
      upstreamFails
        ? sendJson(response, { error: `quota exceeded for ${LIVE_SECRET}` }, 500)
        : sendJson(response, [{ city: 'Berlin', n: 1 }]),
    );
    testApp = await createTestApp({ CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' });
    owner = await createLoggedInUser(testApp, { proUser: true, blogEditor: true });
    other = await createLoggedInUser(testApp);
    privateAssetId = await uploadDataset(owner.agent, { title: 'Owner private', is_public: 'false' });
    paidAssetId = await uploadDataset(owner.agent, { title: 'Owner paid', price: '12.50' });
    connectorId = (
      await createConnector(testApp.dataSource, { fetchUrlTemplate: `${upstream.origin}/items` })
    ).id;
    const activated = await post('owner', '/api/connectors/activate', {
      connector_id: connectorId,
      auth_data: { token: 'owner-secret-token' },
    }).expect(201);
    instanceId = activated.body.id;
    await owner.agent.post(`/api/connectors/run/${instanceId}`).set('Origin', TEST_ORIGIN).expect(200);
    tableName = (await owner.agent.get('/api/connectors/my').expect(200)).body[0].output_table_name;
    ownerKey = (await post('owner', '/api/dev/apikey', { email: owner.user.email }).expect(200)).body.api_key;
    otherKey = (await post('other', '/api/dev/apikey', { email: other.user.email }).expect(200)).body.api_key;
    ownerTokenId = (
      await post('owner', '/api/users/tokens', { name: 'Owner BI', scopes: ['stream'] }).expect(201)
    ).body.id;
    ownerSavedQueryId = (
      await post('owner', '/api/query/saved', { name: 'Owner totals', sql: 'SELECT 1' }).expect(201)
    ).body.id;
    postSlug = (await createPost(testApp.dataSource)).slug;
    privateConnectorId = (
      await post('owner', '/api/connectors/upload', {
        title: 'Owner private connector',
        is_public: false,
        spec: simpleSpec(upstream.origin),
      }).expect(201)
    ).body.id;
    secretConnectorId = (
      await post('owner', '/api/connectors/upload', {
        title: 'Owner connector with a static key',
        spec: simpleSpec(upstream.origin, {
          headers: { Accept: 'application/json', 'X-Api-Key': STATIC_SECRET },
          query: { format: 'json', access_token: STATIC_SECRET },
        }),
      }).expect(201)
    ).body.id;
  });
  afterAll(async () => {
    await testApp.close();
    await upstream.close();
  });

  describe('reads', () => {
    it.each(
      matrix([
        ['GET users/me', 'visitor', () => agentOf('visitor').get('/api/users/me'), 401, LOGIN_REQUIRED],
        [
          'GET users/tokens',
          'visitor',
          () => agentOf('visitor').get('/api/users/tokens'),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'GET query/tables',
          'visitor',
          () => agentOf('visitor').get('/api/query/tables'),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'POST query',
          'visitor',
          () => agentOf('visitor').post('/api/query').send({ sql: 'SELECT 1' }),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'GET users/me/export',
          'visitor',
          () => agentOf('visitor').get('/api/users/me/export'),
          401,
          LOGIN_REQUIRED,
        ],
        ['GET users/me/export', 'owner', () => agentOf('owner').get('/api/users/me/export'), 200],
        ['GET audit/me', 'visitor', () => agentOf('visitor').get('/api/audit/me'), 401, LOGIN_REQUIRED],
        ['GET audit/me', 'other', () => agentOf('other').get('/api/audit/me'), 200],
        [
          'GET audit/me/export',
          'visitor',
          () => agentOf('visitor').get('/api/audit/me/export'),
          401,
          LOGIN_REQUIRED,
        ],
        ['GET audit/me/export', 'owner', () => agentOf('owner').get('/api/audit/me/export'), 200],
        [
          'GET notifications',
          'visitor',
          () => agentOf('visitor').get('/api/notifications'),
          401,
          LOGIN_REQUIRED,
        ],
        ['GET notifications', 'other', () => agentOf('other').get('/api/notifications'), 200],
        [
          'GET downloads/{paid id}',
          'visitor',
          () => agentOf('visitor').get(`/api/downloads/${paidAssetId}`),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'GET downloads/{paid id}',
          'other',
          () => agentOf('other').get(`/api/downloads/${paidAssetId}`),
          404,
          'Dataset not found',
        ],
        [
          'GET downloads/{paid id}',
          'owner',
          () => agentOf('owner').get(`/api/downloads/${paidAssetId}`),
          200,
        ],
        [
          'GET downloads/{private id}',
          'other',
          () => agentOf('other').get(`/api/downloads/${privateAssetId}`),
          404,
          'Dataset not found',
        ],
        [
          'GET assets/{private id}',
          'visitor',
          () => agentOf('visitor').get(`/api/assets/${privateAssetId}`),
          404,
          'Dataset not found',
        ],
        [
          'GET assets/{private id}',
          'other',
          () => agentOf('other').get(`/api/assets/${privateAssetId}`),
          404,
          'Dataset not found',
        ],
        [
          'GET assets/{private id}',
          'owner',
          () => agentOf('owner').get(`/api/assets/${privateAssetId}`),
          200,
        ],
        [
          'GET assets/{private id}/data',
          'visitor',
          () => agentOf('visitor').get(`/api/assets/${privateAssetId}/data`),
          404,
          'Dataset not found',
        ],
        [
          'GET assets/{private id}/data',
          'other',
          () => agentOf('other').get(`/api/assets/${privateAssetId}/data`),
          404,
          'Dataset not found',
        ],
        [
          'GET assets/{private id}/data',
          'owner',
          () => agentOf('owner').get(`/api/assets/${privateAssetId}/data`),
          200,
        ],
        ...ACTORS.map((actor): Row => [
          'GET assets/{private id}/datapackage.json',
          actor,
          () => agentOf(actor).get(`/api/assets/${privateAssetId}/datapackage.json`),
          actor === 'owner' ? 200 : 404,
          actor === 'owner' ? undefined : 'Dataset not found',
        ]),
        ['GET catalog/dcat.jsonld', 'visitor', () => agentOf('visitor').get('/api/catalog/dcat.jsonld'), 200],
        [
          'GET assets/{id}/activity',
          'visitor',
          () => agentOf('visitor').get(`/api/assets/${paidAssetId}/activity`),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'GET assets/{id}/activity',
          'other',
          () => agentOf('other').get(`/api/assets/${paidAssetId}/activity`),
          403,
          DATASET_OWNER_ONLY,
        ],
        [
          'GET assets/{private id}/activity',
          'other',
          () => agentOf('other').get(`/api/assets/${privateAssetId}/activity`),
          404,
          'Dataset not found',
        ],
        [
          'GET assets/{id}/activity',
          'owner',
          () => agentOf('owner').get(`/api/assets/${paidAssetId}/activity`),
          200,
        ],
        [
          'GET access/purchases',
          'visitor',
          () => agentOf('visitor').get('/api/access/purchases'),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'GET assets/table/{instance table}',
          'visitor',
          () => agentOf('visitor').get(`/api/assets/table/${tableName}`),
          404,
          'Table not found',
        ],
        [
          'GET assets/table/{instance table}',
          'other',
          () => agentOf('other').get(`/api/assets/table/${tableName}`),
          404,
          'Table not found',
        ],
        [
          'GET assets/table/{instance table}',
          'owner',
          () => agentOf('owner').get(`/api/assets/table/${tableName}`),
          200,
        ],
        [
          'GET connectors/my',
          'visitor',
          () => agentOf('visitor').get('/api/connectors/my'),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'GET connectors/instance/{id}/runs',
          'visitor',
          () => agentOf('visitor').get(`/api/connectors/instance/${instanceId}/runs`),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'GET connectors/instance/{id}/runs',
          'other',
          () => agentOf('other').get(`/api/connectors/instance/${instanceId}/runs`),
          404,
          'Connector instance not found',
        ],
        [
          'GET connectors/instance/{id}/runs',
          'owner',
          () => agentOf('owner').get(`/api/connectors/instance/${instanceId}/runs`),
          200,
        ],
        [
          'GET connectors/options with another user’s instance',
          'other',
          () =>
            agentOf('other')
              .get('/api/connectors/options')
              .query({ connector_id: connectorId, field: 'region', instance_id: instanceId }),
          404,
          'This field has no options endpoint',
        ],
        [
          'GET stream/data/{private id}',
          'visitor',
          () => agentOf('visitor').get(`/api/stream/data/${privateAssetId}`),
          401,
          'An API key is required (api_key parameter or X-API-Key header)',
        ],
        [
          'GET stream/data/{private id}',
          'other',
          () =>
            agentOf('visitor')
              .get(`/api/stream/data/${privateAssetId}`)
              .query({ api_key: keyOf('other') }),
          404,
          'Dataset not found',
        ],
        [
          'GET stream/data/{private id}',
          'owner',
          () =>
            agentOf('visitor')
              .get(`/api/stream/data/${privateAssetId}`)
              .query({ api_key: keyOf('owner') }),
          200,
        ],
        [
          'GET stream/data/{paid id} without a grant',
          'other',
          () =>
            agentOf('visitor')
              .get(`/api/stream/data/${paidAssetId}`)
              .query({ api_key: keyOf('other') }),
          404,
          'Dataset not found',
        ],
        [
          'GET stream/data/instance-{id}',
          'other',
          () =>
            agentOf('visitor')
              .get(`/api/stream/data/instance-${instanceId}`)
              .query({ api_key: keyOf('other') }),
          404,
          'Dataset not found',
        ],
        [
          'GET stream/data/{bare instance id}',
          'other',
          () =>
            agentOf('visitor')
              .get(`/api/stream/data/${instanceId}`)
              .query({ api_key: keyOf('other') }),
          404,
          'Dataset not found',
        ],
        [
          'GET stream/data/instance-{id}',
          'owner',
          () =>
            agentOf('visitor')
              .get(`/api/stream/data/instance-${instanceId}`)
              .query({ api_key: keyOf('owner') }),
          200,
        ],
        [
          'GET connectors/{private id}',
          'visitor',
          () => agentOf('visitor').get(`/api/connectors/${privateConnectorId}`),
          404,
          'Connector not found',
        ],
        [
          'GET connectors/{private id}',
          'other',
          () => agentOf('other').get(`/api/connectors/${privateConnectorId}`),
          404,
          'Connector not found',
        ],
        [
          'GET connectors/{private id}',
          'owner',
          () => agentOf('owner').get(`/api/connectors/${privateConnectorId}`),
          200,
        ],
        [
          'GET connectors/options of a private connector',
          'other',
          () =>
            agentOf('other')
              .get('/api/connectors/options')
              .query({ connector_id: privateConnectorId, field: 'region' }),
          404,
          'Connector not found',
        ],
        [
          'GET stream/data with a made-up key',
          'visitor',
          () =>
            agentOf('visitor')
              .get('/api/stream/data')
              .query({ api_key: 'x'.repeat(43) }),
          401,
          'Invalid API key',
        ],
        ['GET odata', 'visitor', odataAs('visitor', () => ''), 401, 'Unauthorized'],
        ['GET odata', 'other', odataAs('other', () => ''), 200],
        ['GET odata/$metadata', 'visitor', odataAs('visitor', () => '/$metadata'), 401, 'Unauthorized'],
        ['GET odata/$metadata', 'other', odataAs('other', () => '/$metadata'), 200],
        [
          'GET odata/{private set}',
          'visitor',
          odataAs('visitor', () => `/${privateSet()}`),
          401,
          'Unauthorized',
        ],
        ['GET odata/{private set}', 'other', odataAs('other', () => `/${privateSet()}`), 404, 'NotFound'],
        ['GET odata/{private set}', 'owner', odataAs('owner', () => `/${privateSet()}`), 200],
        [
          'GET odata/{private set}/$count',
          'other',
          odataAs('other', () => `/${privateSet()}/$count`),
          404,
          'NotFound',
        ],
        ['GET odata/{private set}/$count', 'owner', odataAs('owner', () => `/${privateSet()}/$count`), 200],
        [
          'GET odata/{paid set} without a grant',
          'other',
          odataAs('other', () => `/${paidSet()}`),
          404,
          'NotFound',
        ],
        ['GET odata/{instance set}', 'other', odataAs('other', () => `/${instanceSet()}`), 404, 'NotFound'],
        ['GET odata/{instance set}', 'owner', odataAs('owner', () => `/${instanceSet()}`), 200],
        [
          'GET odata with a made-up key',
          'visitor',
          () =>
            agentOf('visitor')
              .get('/api/odata')
              .query({ api_key: 'x'.repeat(43) })
              .then((response) => ({
                status: response.status,
                body: { error: response.body?.error?.message },
              })),
          401,
          'Invalid API key',
        ],
      ]),
    )('$call as $actor answers $status', async ({ send, status, message }) => {
      const response = await send();
      expect(response.status).toBe(status);
      if (message) expect(response.body.error).toBe(message);
    });

    it('lets the options look-up refuse another user’s instance even when the field has an endpoint', async () => {
      const withOptions = await createConnector(testApp.dataSource, {
        fetchUrlTemplate: `${upstream.origin}/items`,
        fields: [
          { key: 'region', label: 'Region', type: 'select', options_endpoint: `${upstream.origin}/regions` },
        ],
      });
      const response = await other.agent
        .get('/api/connectors/options')
        .query({ connector_id: withOptions.id, field: 'region', instance_id: instanceId })
        .expect(404);
      expect(response.body.error).toBe('Connector instance not found');
    });

    it('never shows a private dataset to a visitor or another user in any list', async () => {
      for (const actor of ['visitor', 'other'] as const) {
        const catalogue = await agentOf(actor).get('/api/assets').query({ limit: 1000 }).expect(200);
        expect(catalogue.body.map((item: { id: string }) => item.id)).not.toContain(privateAssetId);
        const search = await agentOf(actor).get('/api/assets').query({ search: 'Owner private' }).expect(200);
        expect(search.body).toEqual([]);
        expect((await agentOf(actor).get('/api/access/my').expect(200)).body).toEqual([]);
      }
      const own = await owner.agent.get('/api/assets').query({ scope: 'owned' }).expect(200);
      expect(own.body.map((item: { id: string }) => item.id)).toEqual(
        expect.arrayContaining([privateAssetId, paidAssetId]),
      );
    });

    it('shows a public paid dataset to others only as the 10-row sample', async () => {
      for (const actor of ['visitor', 'other'] as const) {
        const response = await agentOf(actor)
          .get(`/api/assets/${paidAssetId}/data`)
          .query({ offset: 2 })
          .expect(200);
        expect(response.body).toMatchObject({ sample: true, offset: 0 });
      }
      const full = await owner.agent.get(`/api/assets/${paidAssetId}/data`).query({ offset: 2 }).expect(200);
      expect(full.body).toMatchObject({ sample: false, offset: 2 });
    });

    it('keeps another user’s instances, runs and secrets out of connectors/my and connectors', async () => {
      expect((await other.agent.get('/api/connectors/my').expect(200)).body).toEqual([]);
      const catalogue = await other.agent.get('/api/connectors').expect(200);
      const listed = catalogue.body.find((item: { id: string }) => item.id === connectorId);
      expect(listed).toMatchObject({ has_instance: false, instance_id: null });
      const mine = await owner.agent.get('/api/connectors/my').expect(200);
      expect(mine.body).toHaveLength(1);
      expect(JSON.stringify(mine.body)).not.toContain('owner-secret-token');
      expect(mine.body[0]).not.toHaveProperty('auth_data_encrypted');
    });

    it('never lists a private connector to a visitor or another user; its owner sees it as private', async () => {
      for (const actor of ['visitor', 'other'] as const) {
        const catalogue = await agentOf(actor).get('/api/connectors').expect(200);
        expect(catalogue.body.map((item: { id: string }) => item.id)).not.toContain(privateConnectorId);
      }
      const own = await owner.agent.get('/api/connectors').expect(200);
      expect(own.body.find((item: { id: string }) => item.id === privateConnectorId)).toMatchObject({
        is_public: false,
        owned: true,
      });
    });

    it('shows the static secrets of a connector’s spec to its owner only', async () => {
      for (const actor of ['visitor', 'other'] as const) {
        const detail = await agentOf(actor).get(`/api/connectors/${secretConnectorId}`).expect(200);
        expect(JSON.stringify(detail.body)).not.toContain(STATIC_SECRET);
        expect(detail.body.spec.operations[0].headers).toEqual({
          Accept: 'application/json',
          'X-Api-Key': '[hidden]',
        });
        expect(detail.body.spec.operations[0].query).toEqual({ format: 'json', access_token: '[hidden]' });
        const catalogue = await agentOf(actor).get('/api/connectors').expect(200);
        expect(JSON.stringify(catalogue.body)).not.toContain(STATIC_SECRET);
      }
      const own = await owner.agent.get(`/api/connectors/${secretConnectorId}`).expect(200);
      expect(own.body.spec.operations[0].headers['X-Api-Key']).toBe(STATIC_SECRET);
      expect(own.body.fetch_url_template).toContain(STATIC_SECRET);
    });

    it('keeps the general stream of another key free of the owner’s rows', async () => {
      const response = await testApp.http.get('/api/stream/data').query({ api_key: otherKey }).expect(200);
      expect(response.body).toEqual([]);
      const own = await testApp.http.get('/api/stream/data').query({ api_key: ownerKey }).expect(200);
      expect(own.body.length).toBeGreaterThan(0);
    });

    it('shows each user only their own profile and API key', async () => {
      const mine = await owner.agent.get('/api/users/me').expect(200);
      expect(mine.body).toMatchObject({ id: owner.user.id, api_key: ownerKey });
      const theirs = await other.agent.get('/api/users/me').expect(200);
      expect(theirs.body).toMatchObject({ id: other.user.id, api_key: otherKey });
    });

    it('lets SQL reach the owner’s private table for the owner only, by session or API key', async () => {
      const [{ readable_name: name }] = await testApp.dataSource.query(
        `SELECT readable_name FROM assets WHERE id = $1`,
        [privateAssetId],
      );
      const sql = `SELECT count(*) FROM ${name}`;
      expect((await post('owner', '/api/query', { sql }).expect(200)).body.rows).toEqual([[3]]);
      await testApp.http.post('/api/query').set('X-API-Key', ownerKey).send({ sql }).expect(200);
      const missing = `relation "${name}" does not exist`;
      expect((await post('other', '/api/query', { sql }).expect(400)).body.error).toBe(missing);
      const byKey = await testApp.http
        .post('/api/query')
        .set('X-API-Key', otherKey)
        .send({ sql })
        .expect(400);
      expect(byKey.body.error).toBe(missing);
      const tables = (await other.agent.get('/api/query/tables').expect(200)).body as Array<{ name: string }>;
      expect(tables.map((table) => table.name)).not.toContain(name);
    });

    it('lets SQL reach a dataset for a holder while they hold it, by session or API key', async () => {
      const assetId = await uploadDataset(owner.agent, { title: 'Owner shared for SQL' });
      const [{ readable_name: name }] = await testApp.dataSource.query(
        `SELECT readable_name FROM assets WHERE id = $1`,
        [assetId],
      );
      const sql = `SELECT count(*) FROM ${name}`;
      // A public listing's table, so the answer names it instead of "does not exist".
      const missing = "You don't hold Owner shared for SQL: get it to query it";
      expect((await post('other', '/api/query', { sql }).expect(400)).body.error).toBe(missing);
      await post('other', '/api/access/grant', { assetId }).expect(200);
      expect((await post('other', '/api/query', { sql }).expect(200)).body.rows).toEqual([[3]]);
      await testApp.http.post('/api/query').set('X-API-Key', otherKey).send({ sql }).expect(200);
      await post('other', '/api/access/remove', { assetId }).expect(200);
      expect((await post('other', '/api/query', { sql }).expect(400)).body.error).toBe(missing);
      const byKey = await testApp.http
        .post('/api/query')
        .set('X-API-Key', otherKey)
        .send({ sql })
        .expect(400);
      expect(byKey.body.error).toBe(missing);
    });

    it('lets SQL reach a connector table for its owner only, by session or API key', async () => {
      const [{ readable_name: name }] = await testApp.dataSource.query(
        `SELECT readable_name FROM connector_instances WHERE id = $1`,
        [instanceId],
      );
      const sql = `SELECT count(*) FROM ${name}`;
      await post('owner', '/api/query', { sql }).expect(200);
      await testApp.http.post('/api/query').set('X-API-Key', ownerKey).send({ sql }).expect(200);
      const missing = `relation "${name}" does not exist`;
      expect((await post('other', '/api/query', { sql }).expect(400)).body.error).toBe(missing);
      const byKey = await testApp.http
        .post('/api/query')
        .set('X-API-Key', otherKey)
        .send({ sql })
        .expect(400);
      expect(byKey.body.error).toBe(missing);
      const tables = (await other.agent.get('/api/query/tables').expect(200)).body as Array<{ name: string }>;
      expect(tables.map((table) => table.name)).not.toContain(name);
    });

    it('answers users/session with the caller’s own profile, and null for a visitor', async () => {
      const visitor = await agentOf('visitor').get('/api/users/session').expect(200);
      expect(visitor.body).toEqual({ user: null });
      const mine = await owner.agent.get('/api/users/session').expect(200);
      expect(mine.body.user).toMatchObject({ id: owner.user.id, api_key: ownerKey });
      const theirs = await other.agent.get('/api/users/session').expect(200);
      expect(theirs.body.user).toMatchObject({ id: other.user.id, api_key: otherKey });
    });
  });

  describe('writes refused to everyone but the owner change nothing', () => {
    it.each(
      matrix([
        [
          'DELETE users/me',
          'visitor',
          () => agentOf('visitor').delete('/api/users/me').set('Origin', TEST_ORIGIN).send({ password: 'x' }),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'DELETE users/me with a wrong password',
          'owner',
          () =>
            agentOf('owner').delete('/api/users/me').set('Origin', TEST_ORIGIN).send({ password: 'wrong' }),
          400,
          'Password is incorrect',
        ],
        [
          'DELETE users/me from another site',
          'owner',
          () =>
            agentOf('owner')
              .delete('/api/users/me')
              .set('Origin', 'https://evil.example')
              .send({ password: 'correct-horse-battery' }),
          403,
          'Cross-origin request refused',
        ],
        [
          'POST access/grant {private id}',
          'visitor',
          () => post('visitor', '/api/access/grant', { assetId: privateAssetId }),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'POST access/grant {private id}',
          'other',
          () => post('other', '/api/access/grant', { assetId: privateAssetId }),
          404,
          'Dataset not found',
        ],
        [
          'POST access/remove {private id}',
          'visitor',
          () => post('visitor', '/api/access/remove', { assetId: privateAssetId }),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'POST access/remove {private id}',
          'other',
          () => post('other', '/api/access/remove', { assetId: privateAssetId }),
          404,
          'Dataset not found',
        ],
        [
          'POST access/remove {own id}',
          'owner',
          () => post('owner', '/api/access/remove', { assetId: privateAssetId }),
          400,
          'You own this dataset; an owner cannot remove their own access.',
        ],
        [
          'PATCH assets/{id}',
          'visitor',
          () =>
            agentOf('visitor')
              .patch(`/api/assets/${paidAssetId}`)
              .set('Origin', TEST_ORIGIN)
              .send({ title: 'Hijacked', price: '0' }),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'POST assets/{id}/refresh',
          'visitor',
          () =>
            agentOf('visitor')
              .post(`/api/assets/${paidAssetId}/refresh`)
              .set('Origin', TEST_ORIGIN)
              .field('mode', 'replace')
              .attach('file', Buffer.from('a,b\n1,2\n'), 'x.csv'),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'DELETE assets/{id}',
          'visitor',
          () => agentOf('visitor').delete(`/api/assets/${paidAssetId}`).set('Origin', TEST_ORIGIN),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'DELETE connectors/{id}',
          'visitor',
          () => agentOf('visitor').delete(`/api/connectors/${privateConnectorId}`).set('Origin', TEST_ORIGIN),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'PATCH assets/{id}',
          'other',
          () =>
            agentOf('other')
              .patch(`/api/assets/${paidAssetId}`)
              .set('Origin', TEST_ORIGIN)
              .send({ title: 'Hijacked', price: '0' }),
          403,
          DATASET_OWNER_ONLY,
        ],
        [
          'PATCH assets/{id} with a column dictionary',
          'other',
          () =>
            agentOf('other')
              .patch(`/api/assets/${paidAssetId}`)
              .set('Origin', TEST_ORIGIN)
              .send({ dictionary: { name: 'Hijacked' } }),
          403,
          DATASET_OWNER_ONLY,
        ],
        [
          'PATCH assets/{private id}',
          'other',
          () =>
            agentOf('other')
              .patch(`/api/assets/${privateAssetId}`)
              .set('Origin', TEST_ORIGIN)
              .send({ title: 'Hijacked' }),
          404,
          'Dataset not found',
        ],
        [
          'POST assets/{id}/refresh',
          'other',
          () =>
            agentOf('other')
              .post(`/api/assets/${paidAssetId}/refresh`)
              .set('Origin', TEST_ORIGIN)
              .field('mode', 'replace')
              .attach('file', Buffer.from('a,b\n1,2\n'), 'x.csv'),
          403,
          DATASET_OWNER_ONLY,
        ],
        [
          'POST assets/{private id}/refresh',
          'other',
          () =>
            agentOf('other')
              .post(`/api/assets/${privateAssetId}/refresh`)
              .set('Origin', TEST_ORIGIN)
              .field('mode', 'replace')
              .attach('file', Buffer.from('a,b\n1,2\n'), 'x.csv'),
          404,
          'Dataset not found',
        ],
        [
          'DELETE assets/{id}',
          'other',
          () => agentOf('other').delete(`/api/assets/${paidAssetId}`).set('Origin', TEST_ORIGIN),
          403,
          DATASET_OWNER_ONLY,
        ],
        [
          'DELETE assets/{private id}',
          'other',
          () => agentOf('other').delete(`/api/assets/${privateAssetId}`).set('Origin', TEST_ORIGIN),
          404,
          'Dataset not found',
        ],
        [
          'DELETE connectors/{private id}',
          'other',
          () => agentOf('other').delete(`/api/connectors/${privateConnectorId}`).set('Origin', TEST_ORIGIN),
          404,
          'Connector not found',
        ],
        [
          'DELETE connectors/{public id}',
          'other',
          () => agentOf('other').delete(`/api/connectors/${secretConnectorId}`).set('Origin', TEST_ORIGIN),
          403,
          CONNECTOR_OWNER_ONLY,
        ],
        [
          'POST assets/upload-csv',
          'visitor',
          () => postCsv(agentOf('visitor'), 'a,b\n1,2\n', { title: 'x' }),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'POST connectors/activate',
          'visitor',
          () => post('visitor', '/api/connectors/activate', { connector_id: connectorId }),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'POST connectors/activate {private connector}',
          'other',
          () => post('other', '/api/connectors/activate', { connector_id: privateConnectorId }),
          404,
          'Connector not found',
        ],
        [
          'POST connectors/upload',
          'visitor',
          () => post('visitor', '/api/connectors/upload', { title: 'x', spec: {} }),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'POST connectors/remove/{id}',
          'visitor',
          () => post('visitor', `/api/connectors/remove/${instanceId}`),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'POST connectors/remove/{id}',
          'other',
          () => post('other', `/api/connectors/remove/${instanceId}`),
          404,
          'Connector instance not found',
        ],
        [
          'POST connectors/run/{id}',
          'visitor',
          () => post('visitor', `/api/connectors/run/${instanceId}`),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'POST connectors/run/{id}',
          'other',
          () => post('other', `/api/connectors/run/${instanceId}`),
          404,
          'Connector instance not found',
        ],
        [
          'POST connectors/test-read',
          'visitor',
          () => post('visitor', '/api/connectors/test-read', { instance_id: instanceId }),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'POST connectors/test-read of another user’s instance',
          'other',
          () => post('other', '/api/connectors/test-read', { instance_id: instanceId }),
          404,
          'Connector instance not found',
        ],
        [
          'POST connectors/instance/{id}/state/reset',
          'visitor',
          () => post('visitor', `/api/connectors/instance/${instanceId}/state/reset`),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'POST connectors/instance/{id}/state/reset',
          'other',
          () => post('other', `/api/connectors/instance/${instanceId}/state/reset`),
          404,
          'Connector instance not found',
        ],
        [
          'POST connectors/instance/{id}/run',
          'visitor',
          () => post('visitor', `/api/connectors/instance/${instanceId}/run`, { override: true }),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'POST connectors/instance/{id}/run',
          'other',
          () => post('other', `/api/connectors/instance/${instanceId}/run`, { override: true }),
          404,
          'Connector instance not found',
        ],
        [
          'PATCH connectors/instance/{id}',
          'visitor',
          () =>
            agentOf('visitor')
              .patch(`/api/connectors/instance/${instanceId}`)
              .set('Origin', TEST_ORIGIN)
              .send({ settings: { x: 1 } }),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'PATCH connectors/instance/{id}',
          'other',
          () =>
            agentOf('other')
              .patch(`/api/connectors/instance/${instanceId}`)
              .set('Origin', TEST_ORIGIN)
              .send({ settings: { x: 1 }, auth_data: { token: 'stolen' } }),
          404,
          'Connector instance not found',
        ],
        [
          'POST dev/apikey',
          'visitor',
          () => post('visitor', '/api/dev/apikey', { email: owner.user.email }),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'POST dev/apikey for the owner’s e-mail',
          'other',
          () => post('other', '/api/dev/apikey', { email: owner.user.email }),
          403,
          'You can only generate an API key for your own account',
        ],
        [
          'POST users/change-password',
          'visitor',
          () =>
            post('visitor', '/api/users/change-password', {
              current_password: 'x',
              new_password: 'long-enough-1',
            }),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'GET users/sessions',
          'visitor',
          () => agentOf('visitor').get('/api/users/sessions'),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'POST users/sessions/{owner’s session}/sign-out',
          'visitor',
          async () => post('visitor', `/api/users/sessions/${await ownerSessionId()}/sign-out`),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'POST users/sessions/{owner’s session}/sign-out',
          'other',
          async () => post('other', `/api/users/sessions/${await ownerSessionId()}/sign-out`),
          404,
          'Session not found',
        ],
        [
          'POST users/sessions/sign-out-others',
          'visitor',
          () => post('visitor', '/api/users/sessions/sign-out-others'),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'GET users/two-factor',
          'visitor',
          () => agentOf('visitor').get('/api/users/two-factor'),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'POST users/two-factor/setup',
          'visitor',
          () => post('visitor', '/api/users/two-factor/setup'),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'POST users/two-factor/enable',
          'visitor',
          () => post('visitor', '/api/users/two-factor/enable', { code: '123456' }),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'POST users/two-factor/disable',
          'visitor',
          () => post('visitor', '/api/users/two-factor/disable', { password: 'x', code: '123456' }),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'POST users/login/two-factor without the password step',
          'visitor',
          () => post('visitor', '/api/users/login/two-factor', { code: '123456' }),
          401,
          'Your sign-in has expired. Please log in again.',
        ],
        [
          'POST users/reset-password with a made-up token',
          'visitor',
          () =>
            post('visitor', '/api/users/reset-password', { token: 'made-up', new_password: 'long-enough-1' }),
          400,
          'This password reset link is invalid or has expired.',
        ],
        [
          'POST blog',
          'visitor',
          () => post('visitor', '/api/blog', { title: 'Hijack', slug: 'hijack-visitor' }),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'POST blog (not an editor)',
          'other',
          () => post('other', '/api/blog', { title: 'Hijack', slug: 'hijack-other' }),
          403,
          'Only blog editors may publish posts',
        ],
      ]),
    )('$call as $actor answers $status', async ({ send, status, message }) => {
      const response = await expectUnchanged(testApp.dataSource, [owner.user.id, other.user.id], () =>
        send(),
      );
      expect(response.status).toBe(status);
      expect(response.body.error).toBe(message);
    });

    it.each(
      matrix([
        [
          'POST users/tokens',
          'visitor',
          () => post('visitor', '/api/users/tokens', { name: 'x', scopes: ['stream'] }),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'DELETE users/tokens/{owner token}',
          'visitor',
          () => agentOf('visitor').delete(`/api/users/tokens/${ownerTokenId}`).set('Origin', TEST_ORIGIN),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'DELETE users/tokens/{owner token}',
          'other',
          () => agentOf('other').delete(`/api/users/tokens/${ownerTokenId}`).set('Origin', TEST_ORIGIN),
          404,
          'Token not found',
        ],
      ]),
    )('$call as $actor answers $status and changes no token', async ({ send, status, message }) => {
      const response = await expectUnchanged(testApp.dataSource, [owner.user.id, other.user.id], () =>
        send(),
      );
      expect(response.status).toBe(status);
      expect(response.body.error).toBe(message);
    });

    it('lists no other user’s token', async () => {
      const theirs = await other.agent.get('/api/users/tokens').expect(200);
      expect(theirs.body.map((token: { id: string }) => token.id)).not.toContain(ownerTokenId);
      const mine = await owner.agent.get('/api/users/tokens').expect(200);
      expect(mine.body.map((token: { id: string }) => token.id)).toContain(ownerTokenId);
    });

    it.each(
      matrix([
        [
          'GET query/saved/{owner query}',
          'visitor',
          () => agentOf('visitor').get(`/api/query/saved/${ownerSavedQueryId}`),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'GET query/saved/{owner query}',
          'other',
          () => agentOf('other').get(`/api/query/saved/${ownerSavedQueryId}`),
          404,
          'Saved query not found',
        ],
        [
          'GET query/saved/{owner query} by key',
          'other',
          () => testApp.http.get(`/api/query/saved/${ownerSavedQueryId}`).set('X-API-Key', otherKey),
          404,
          'Saved query not found',
        ],
        [
          'PATCH query/saved/{owner query}',
          'visitor',
          () =>
            agentOf('visitor')
              .patch(`/api/query/saved/${ownerSavedQueryId}`)
              .set('Origin', TEST_ORIGIN)
              .send({ sql: 'SELECT 2' }),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'PATCH query/saved/{owner query}',
          'other',
          () =>
            agentOf('other')
              .patch(`/api/query/saved/${ownerSavedQueryId}`)
              .set('Origin', TEST_ORIGIN)
              .send({ name: 'Taken over', sql: 'SELECT 2' }),
          404,
          'Saved query not found',
        ],
        [
          'DELETE query/saved/{owner query}',
          'other',
          () => agentOf('other').delete(`/api/query/saved/${ownerSavedQueryId}`).set('Origin', TEST_ORIGIN),
          404,
          'Saved query not found',
        ],
        [
          'DELETE query/saved/{owner query} by key',
          'other',
          () => testApp.http.delete(`/api/query/saved/${ownerSavedQueryId}`).set('X-API-Key', otherKey),
          404,
          'Saved query not found',
        ],
      ]),
    )(
      '$call as $actor answers $status and leaves the saved query as it was',
      async ({ send, status, message }) => {
        const response = await send();
        expect(response.status).toBe(status);
        expect(response.body.error).toBe(message);
        const mine = await owner.agent.get(`/api/query/saved/${ownerSavedQueryId}`).expect(200);
        expect(mine.body).toMatchObject({ name: 'Owner totals', sql: 'SELECT 1' });
      },
    );

    it('lists no other user’s saved queries or history', async () => {
      await post('owner', '/api/query', { sql: 'SELECT 41 AS owner_history_marker' }).expect(200);
      const saved = await other.agent.get('/api/query/saved').expect(200);
      expect(saved.body.map((query: { id: string }) => query.id)).not.toContain(ownerSavedQueryId);
      const history = await other.agent.get('/api/query/history').expect(200);
      expect(JSON.stringify(history.body)).not.toContain('owner_history_marker');
      const own = await owner.agent.get('/api/query/history').expect(200);
      expect(own.body[0].sql).toBe('SELECT 41 AS owner_history_marker');
    });

    it('leaves the owner’s API key working after another user’s attempt to replace it', async () => {
      await post('other', '/api/dev/apikey', { email: owner.user.email.toUpperCase() }).expect(403);
      await testApp.http.get(`/api/stream/data/${privateAssetId}`).query({ api_key: ownerKey }).expect(200);
    });

    it('lets the owner do each of them', async () => {
      await owner.agent
        .patch(`/api/connectors/instance/${instanceId}`)
        .set('Origin', TEST_ORIGIN)
        .send({ title: 'Renamed by owner' })
        .expect(200);
      await post('owner', `/api/connectors/instance/${instanceId}/run`, {}).expect(202);
      const finished = await (async () => {
        for (let attempt = 0; attempt < 100; attempt++) {
          const runs = await owner.agent.get(`/api/connectors/instance/${instanceId}/runs`).expect(200);
          if (runs.body.every((run: { status: string }) => run.status !== 'running')) return runs.body;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        throw new Error('the run did not finish');
      })();
      expect(finished[0].status).toBe('succeeded');
      await post('owner', '/api/blog', { title: 'Owner post', slug: `owner-post-${Date.now()}` }).expect(201);
      await post('owner', `/api/connectors/remove/${instanceId}`).expect(200);
      await owner.agent.get(`/api/assets/table/${tableName}`).expect(404);
      const throwaway = await uploadDataset(owner.agent, { title: 'Owner throwaway' });
      await owner.agent
        .patch(`/api/assets/${throwaway}`)
        .set('Origin', TEST_ORIGIN)
        .send({ title: 'Owner renamed' })
        .expect(200);
      await owner.agent
        .post(`/api/assets/${throwaway}/refresh`)
        .set('Origin', TEST_ORIGIN)
        .field('mode', 'append')
        .attach('file', Buffer.from('name,amount\ndelta,4\n'), 'more.csv')
        .expect(200);
      await owner.agent.delete(`/api/assets/${throwaway}`).set('Origin', TEST_ORIGIN).expect(200);
      const ownConnector = await post('owner', '/api/connectors/upload', {
        title: 'Owner throwaway connector',
        spec: simpleSpec(upstream.origin),
      }).expect(201);
      await owner.agent
        .delete(`/api/connectors/${ownConnector.body.id}`)
        .set('Origin', TEST_ORIGIN)
        .expect(200);
    });
  });

  describe('live products: owner-only calls, and subscribers never read the connection', () => {
    let liveInstanceId: string;
    let liveAssetId: string;
    let liveTable: string;
    const publishAs = (actor: Actor) => () =>
      post(actor, `/api/connectors/instance/${liveInstanceId}/publish`, { table: liveTable, title: 'Taken' });
    const decide = (actor: Actor, decision: 'accept' | 'dismiss') => () =>
      post(actor, `/api/products/${liveAssetId}/schema-change/${decision}`);

    beforeAll(async () => {
      liveInstanceId = (
        await post('owner', '/api/connectors/activate', {
          connector_id: connectorId,
          auth_data: { token: LIVE_SECRET },
        }).expect(201)
      ).body.id;
      await post('owner', `/api/connectors/run/${liveInstanceId}`).expect(200);
      const instances: Array<{ id: string; tables: Array<{ readable_name: string }> }> = (
        await owner.agent.get('/api/connectors/my').expect(200)
      ).body;
      liveTable = instances.find((instance) => instance.id === liveInstanceId)!.tables[0].readable_name;
      liveAssetId = (
        await post('owner', `/api/connectors/instance/${liveInstanceId}/publish`, {
          table: liveTable,
          title: 'Live cities',
        }).expect(201)
      ).body.id;
      await post('other', '/api/access/grant', { assetId: liveAssetId }).expect(200);
      // A failed refresh: its error (which may carry the upstream's words and URL) is the owner's alone.
      upstreamFails = true;
      await post('owner', `/api/connectors/run/${liveInstanceId}`).expect(502);
      upstreamFails = false;
    });

    it.each(
      matrix([
        ['POST connectors/instance/{id}/publish', 'visitor', publishAs('visitor'), 401, LOGIN_REQUIRED],
        [
          'POST connectors/instance/{id}/publish',
          'other',
          publishAs('other'),
          404,
          'Connector instance not found',
        ],
        [
          'POST products/{id}/schema-change/accept',
          'visitor',
          decide('visitor', 'accept'),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'POST products/{id}/schema-change/accept',
          'other',
          decide('other', 'accept'),
          403,
          DATASET_OWNER_ONLY,
        ],
        [
          'POST products/{id}/schema-change/accept',
          'owner',
          decide('owner', 'accept'),
          409,
          'No schema change is waiting for this dataset.',
        ],
        [
          'POST products/{id}/schema-change/dismiss',
          'visitor',
          decide('visitor', 'dismiss'),
          401,
          LOGIN_REQUIRED,
        ],
        [
          'POST products/{id}/schema-change/dismiss',
          'other',
          decide('other', 'dismiss'),
          403,
          DATASET_OWNER_ONLY,
        ],
        [
          'POST connectors/remove/{id} feeding a product',
          'owner',
          () => post('owner', `/api/connectors/remove/${liveInstanceId}`),
          409,
          'This connection feeds the published dataset “Live cities”: unpublish it first.',
        ],
      ]),
    )('$call as $actor answers $status', async ({ send, status, message }) => {
      const response = await send();
      expect(response.status).toBe(status);
      if (message) expect(response.body.error).toBe(message);
    });

    it.each(['visitor', 'other'] as const)(
      'answers %s about a live dataset without the connection’s settings, secrets or run errors',
      async (actor) => {
        const answers: string[] = [];
        const keep = (response: { status: number; text: string }) => {
          expect(response.status).toBe(200);
          answers.push(response.text);
        };
        keep(await agentOf(actor).get(`/api/assets/${liveAssetId}`));
        keep(await agentOf(actor).get(`/api/assets/${liveAssetId}/data`));
        keep(await agentOf(actor).get('/api/assets').query({ live: 'true' }));
        if (actor === 'other') {
          keep(await agentOf('visitor').get(`/api/stream/data/${liveAssetId}`).query({ api_key: otherKey }));
          const name = JSON.parse(answers[0]).readable_name as string;
          keep(await agentOf('visitor').get(`/api/odata/${name}`).query({ api_key: otherKey }));
          keep(await post('other', '/api/query', { sql: `SELECT * FROM ${name}` }));
          keep(await agentOf('other').get('/api/notifications'));
        }
        const detail = JSON.parse(answers[0]);
        expect(detail.live.runs.map((run: { outcome: string }) => run.outcome)).toEqual(['failed']);
        expect(detail.live.runs[0]).not.toHaveProperty('error');
        expect(detail.live).not.toHaveProperty('instance_id');
        expect(detail.live).not.toHaveProperty('pending_schema_change');
        for (const text of answers) {
          expect(text).not.toContain(LIVE_SECRET);
          expect(text).not.toContain(upstream.origin);
          expect(text).not.toContain('quota exceeded');
          expect(text).not.toContain(liveInstanceId);
          expect(text).not.toMatch(/auth_data|fetch_url|"settings"|"headers"/);
        }
      },
    );

    it('shows the owner the run error and the connection behind the listing', async () => {
      const detail = (await owner.agent.get(`/api/assets/${liveAssetId}`).expect(200)).body;
      expect(detail.live.instance_id).toBe(liveInstanceId);
      expect(detail.live.runs[0].error).toContain('500');
      expect(JSON.stringify(detail)).not.toContain(LIVE_SECRET);
    });
  });

  describe('public calls answer everyone alike', () => {
    it.each(ACTORS)('GET blog, blog/{slug}, connectors and connectors/{id} as %s', async (actor) => {
      await agentOf(actor).get('/api/blog').expect(200);
      await agentOf(actor).get(`/api/blog/${postSlug}`).expect(200);
      await agentOf(actor).get('/api/connectors').expect(200);
      await agentOf(actor).get(`/api/connectors/${connectorId}`).expect(200);
      await agentOf(actor).get(`/api/assets/${paidAssetId}`).expect(200);
    });
  });
});
