import { createTestApp, TestApp } from '../support/test-app';
import { FakeUpstream, sendJson, startFakeUpstream } from './support/fake-upstream';
import { connect } from './support/run-through-api';

const CLIENT_SECRET = 'cs-very-secret-123';
const PASSWORD = 'pw-very-secret-456';

/**
 * Auth as real APIs do it: an OAuth2 client-credentials exchange whose tokens expire, and a
 * session login whose token later requests carry. Each runs through the API and checks the
 * exact rows stored, the run's status, and that no secret reaches the run history.
 */
describe('connector shapes: OAuth2 client credentials and session tokens', () => {
  let upstream: FakeUpstream;
  let testApp: TestApp;
  let issued = 0;
  let valid = new Set<string>();
  let lifetime = 3600;
  let sessions = new Set<string>();

  beforeAll(async () => {
    upstream = await startFakeUpstream((request, response) => {
      const path = request.url.pathname;
      if (path === '/oauth/token') {
        const form = new URLSearchParams(request.body);
        if (
          request.headers['content-type'] !== 'application/x-www-form-urlencoded' ||
          form.get('grant_type') !== 'client_credentials' ||
          form.get('client_id') !== 'app-1' ||
          form.get('client_secret') !== CLIENT_SECRET
        )
          return sendJson(response, { error: 'invalid_client' }, 401);
        const token = `at-${++issued}`;
        valid.add(token);
        return sendJson(response, {
          access_token: token,
          token_type: 'Bearer',
          expires_in: lifetime,
          scope: form.get('scope'),
        });
      }
      if (path === '/api/orders') {
        const token = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
        if (!valid.has(token)) return sendJson(response, { error: 'invalid_token' }, 401);
        return sendJson(response, { orders: [{ id: 1 }, { id: 2 }, { id: 3 }] });
      }
      if (path === '/session/login') {
        const form = new URLSearchParams(request.body);
        if (form.get('username') !== 'ann' || form.get('password') !== PASSWORD)
          return sendJson(response, { message: 'bad login' }, 401);
        const token = `s-${sessions.size + 1}`;
        sessions.add(token);
        return sendJson(response, { session: { id: token } });
      }
      if (path === '/session/cards') {
        if (!sessions.has(String(request.headers['x-session-id'])))
          return sendJson(response, { message: 'login first' }, 401);
        return sendJson(response, [{ id: 'a' }, { id: 'b' }]);
      }
      if (path === '/echo')
        return sendJson(
          response,
          { message: `key ${request.url.searchParams.get('apikey')} is not valid` },
          400,
        );
      return sendJson(response, { message: 'Not Found' }, 404);
    });
    testApp = await createTestApp({ CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' });
  });
  afterAll(async () => {
    await testApp.close();
    await upstream.close();
  });
  beforeEach(() => {
    issued = 0;
    valid = new Set();
    sessions = new Set();
    lifetime = 3600;
    upstream.requests.splice(0);
  });

  const oauthSpec = () => ({
    base_url: upstream.origin,
    auth: {
      type: 'oauth2' as const,
      grant_type: 'client_credentials' as const,
      token_url: '/oauth/token',
      scopes: ['orders.read'],
      fields: [{ key: 'client_id' }, { key: 'client_secret' }],
    },
    operations: [{ id: 'orders', url_path: '/api/orders', response_path: 'orders' }],
  });
  const tokenRequests = () => upstream.requests.filter((request) => request.url.pathname === '/oauth/token');

  it('exchanges client credentials once, caches the token encrypted and reuses it on the next run', async () => {
    const instance = await connect(testApp, oauthSpec(), {
      auth_data: { client_id: 'app-1', client_secret: CLIENT_SECRET },
    });
    const first = await instance.run();
    expect(first.run).toMatchObject({ status: 'succeeded', row_count: 3 });
    expect(first.stored).toBe(3);
    const second = await instance.run();
    expect(second.run).toMatchObject({ status: 'succeeded', row_count: 3 });
    expect(second.stored).toBe(3);
    expect(tokenRequests()).toHaveLength(1);
    expect(new URLSearchParams(tokenRequests()[0].body).get('scope')).toBe('orders.read');
    const [row] = await testApp.dataSource.query(
      `SELECT token_cache_encrypted FROM connector_instances WHERE id = $1`,
      [instance.id],
    );
    expect(row.token_cache_encrypted).toMatch(/^v1\./);
    expect(row.token_cache_encrypted).not.toContain('at-1');
  });

  it('gets a new token when the cached one is about to expire, and after a 401', async () => {
    lifetime = 30; // inside the renewal margin: renewed before every run
    const instance = await connect(testApp, oauthSpec(), {
      auth_data: { client_id: 'app-1', client_secret: CLIENT_SECRET },
    });
    expect((await instance.run()).run).toMatchObject({ status: 'succeeded' });
    expect((await instance.run()).run).toMatchObject({ status: 'succeeded' });
    expect(tokenRequests()).toHaveLength(2);

    lifetime = 3600;
    expect((await instance.run()).run).toMatchObject({ status: 'succeeded' });
    valid.clear(); // the upstream revokes every token it gave
    const { run, stored } = await instance.run();
    expect(run).toMatchObject({ status: 'succeeded', row_count: 3 });
    expect(stored).toBe(3);
    expect(tokenRequests()).toHaveLength(4);
  });

  it('fails a refused exchange with the upstream error code and no secret in the run history', async () => {
    const instance = await connect(testApp, oauthSpec(), {
      auth_data: { client_id: 'app-1', client_secret: 'wrong-secret-value' },
    });
    const { run, stored } = await instance.run();
    expect(run).toMatchObject({ status: 'failed' });
    expect(run.error).toMatch(
      /^The OAuth2 token request to 127\.0\.0\.1:\d+\/oauth\/token failed \(HTTP 401: invalid_client\)$/,
    );
    expect(JSON.stringify(run)).not.toContain('wrong-secret-value');
    expect(stored).toBe(0);
  });

  it('session token: logs in with a form-encoded body and sends the token on each request', async () => {
    const instance = await connect(
      testApp,
      {
        base_url: upstream.origin,
        auth: {
          type: 'session',
          login: {
            url_path: '/session/login',
            body: { username: '{{username}}', password: '{{password}}' },
            body_format: 'form',
            token_path: 'session.id',
          },
          name: 'X-Session-Id',
          format: '{{session_token}}',
          fields: [{ key: 'username' }, { key: 'password' }],
        },
        operations: [{ id: 'cards', url_path: '/session/cards' }],
      },
      { auth_data: { username: 'ann', password: PASSWORD } },
    );
    const { run, stored } = await instance.run();
    expect(run).toMatchObject({ status: 'succeeded', row_count: 2 });
    expect(stored).toBe(2);
    const login = upstream.requests.find((request) => request.url.pathname === '/session/login')!;
    expect(login.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(upstream.requests.filter((request) => request.url.pathname === '/session/login')).toHaveLength(1);
  });

  it('masks a credential the upstream echoes in its error before it reaches the run history', async () => {
    const instance = await connect(
      testApp,
      {
        base_url: upstream.origin,
        auth: { type: 'api_key', in: 'query', name: 'apikey', fields: [{ key: 'key' }] },
        operations: [{ id: 'echo', url_path: '/echo' }],
      },
      { auth_data: { key: 'k-echoed-secret' } },
    );
    const { run, stored } = await instance.run();
    expect(run).toMatchObject({ status: 'failed' });
    expect(run.error).toMatch(
      /^HTTP 400 Bad Request from 127\.0\.0\.1:\d+\/echo: \{"message":"key \*\*\* is not valid"\}$/,
    );
    expect(stored).toBe(0);
  });
});
