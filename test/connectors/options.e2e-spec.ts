import { createConnector } from '../factories/connector.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { FakeUpstream, sendJson, startFakeUpstream } from './support/fake-upstream';

describe('connectors: options look-ups and iterations through the API', () => {
  let testApp: TestApp;
  let upstream: FakeUpstream;
  let connectorId: string;

  beforeAll(async () => {
    upstream = await startFakeUpstream((request, response) => {
      if (request.url.pathname === '/regions')
        return sendJson(response, {
          regions: [
            { code: 'eu', name: 'Europe' },
            { code: 'us', name: 'Americas' },
          ],
        });
      if (request.url.pathname.startsWith('/countries/')) {
        const region = request.url.pathname.split('/')[2];
        return sendJson(response, region === 'eu' ? ['DE', 'FR'] : ['US']);
      }
      if (request.url.pathname.startsWith('/weather/'))
        return sendJson(response, [{ temp: request.url.pathname.length }]);
      return sendJson(response, [], 404);
    });
    testApp = await createTestApp({ CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' });
    connectorId = (
      await createConnector(testApp.dataSource, {
        spec: {
          base_url: upstream.origin,
          auth: { type: 'header', name: 'X-Key', fields: [{ key: 'key', required: false }] },
          operations: [
            { id: 'weather', url_path: '/weather/{{city}}' },
            { id: 'regions', url_path: '/regions', response_path: 'regions' },
          ],
          fields: [
            {
              key: 'region',
              type: 'select',
              options_endpoint: { operation: 'regions', value_key: 'code', label_key: 'name' },
            },
            {
              key: 'country',
              type: 'select',
              options_endpoint: '/countries/{{region}}',
              depends_on: ['region'],
            },
            { key: 'city', type: 'text' },
          ],
        },
      })
    ).id;
  });
  afterAll(async () => {
    await testApp.close();
    await upstream.close();
  });

  it('serves an operation-backed options endpoint with value and label keys', async () => {
    const { agent } = await createLoggedInUser(testApp);
    const response = await agent
      .get('/api/connectors/options')
      .query({ connector_id: connectorId, field: 'region' })
      .expect(200);
    expect(response.body).toEqual({
      options: [
        { value: 'eu', label: 'Europe' },
        { value: 'us', label: 'Americas' },
      ],
    });
  });

  it('passes depends_on values into the endpoint template (and only those)', async () => {
    const { agent } = await createLoggedInUser(testApp);
    upstream.requests.splice(0);
    const response = await agent
      .get('/api/connectors/options')
      .query({
        connector_id: connectorId,
        field: 'country',
        values: JSON.stringify({ region: 'eu', city: 'ignored' }),
      })
      .expect(200);
    expect(response.body.options).toEqual([
      { value: 'DE', label: 'DE' },
      { value: 'FR', label: 'FR' },
    ]);
    expect(upstream.requests[0].url.pathname).toBe('/countries/eu');
    expect(upstream.requests[0].url.search).toBe('');
  });

  it("uses the caller's own instance auth data, and 404s another user's instance", async () => {
    const { agent } = await createLoggedInUser(testApp);
    const { id } = (
      await agent
        .post('/api/connectors/activate')
        .set('Origin', TEST_ORIGIN)
        .send({ connector_id: connectorId, auth_data: { key: 'k-1' } })
        .expect(201)
    ).body;
    upstream.requests.splice(0);
    await agent
      .get('/api/connectors/options')
      .query({ connector_id: connectorId, field: 'region', instance_id: id })
      .expect(200);
    expect(upstream.requests[0].headers['x-key']).toBe('k-1');
    const { agent: other } = await createLoggedInUser(testApp);
    await other
      .get('/api/connectors/options')
      .query({ connector_id: connectorId, field: 'region', instance_id: id })
      .expect(404);
  });

  it('loads options before connecting without asking for a token the user has not given yet', async () => {
    const tokenless = await createConnector(testApp.dataSource, {
      spec: {
        base_url: upstream.origin,
        auth: {
          type: 'oauth2',
          grant_type: 'client_credentials',
          token_url: '/oauth/token',
          fields: [{ key: 'client_id', required: true }],
        },
        operations: [{ id: 'weather', url_path: '/weather/{{city}}' }],
        fields: [{ key: 'region', type: 'select', options_endpoint: '/regions' }],
      },
    });
    const { agent } = await createLoggedInUser(testApp);
    upstream.requests.splice(0);
    await agent
      .get('/api/connectors/options')
      .query({ connector_id: tokenless.id, field: 'region' })
      .expect(200);
    expect(upstream.requests.map((request) => request.url.pathname)).toEqual(['/regions']);
    expect(upstream.requests[0].headers.authorization).toBeUndefined();
  });

  it('requires login, a known field with an endpoint, and JSON values', async () => {
    await testApp.http
      .get('/api/connectors/options')
      .query({ connector_id: connectorId, field: 'region' })
      .expect(401);
    const { agent } = await createLoggedInUser(testApp);
    await agent
      .get('/api/connectors/options')
      .query({ connector_id: connectorId, field: 'city' })
      .expect(404);
    const bad = await agent
      .get('/api/connectors/options')
      .query({ connector_id: connectorId, field: 'country', values: '{' })
      .expect(400);
    expect(bad.body.error).toBe('values must be a JSON object');
  });

  it('runs one request sequence per iterated value and tags the rows', async () => {
    const { agent } = await createLoggedInUser(testApp);
    const { id } = (
      await agent
        .post('/api/connectors/activate')
        .set('Origin', TEST_ORIGIN)
        .send({ connector_id: connectorId, settings: { city: ['Rome', 'Oslo'] }, iterations: ['city'] })
        .expect(201)
    ).body;
    upstream.requests.splice(0);
    expect(
      (await agent.post(`/api/connectors/run/${id}`).set('Origin', TEST_ORIGIN).expect(200)).body.rowCount,
    ).toBe(2);
    expect(upstream.requests.map((request) => request.url.pathname)).toEqual([
      '/weather/Rome',
      '/weather/Oslo',
    ]);
    const [instance] = await testApp.dataSource.query(
      `SELECT output_table_name FROM connector_instances WHERE id = $1`,
      [id],
    );
    const rows = await testApp.dataSource.query(
      `SELECT _city FROM data."${instance.output_table_name}" ORDER BY _city`,
    );
    expect(rows).toEqual([{ _city: 'Oslo' }, { _city: 'Rome' }]);
  });
});
