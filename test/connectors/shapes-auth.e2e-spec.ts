import { setTimeout as sleep } from 'node:timers/promises';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { FakeUpstream, sendJson, startFakeUpstream } from './support/fake-upstream';
import { ConnectedInstance, connect } from './support/run-through-api';

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
  /** Access token -> when it expires (epoch milliseconds). */
  let valid = new Map<string, number>();
  let expiredTokenAnswers = 0;
  let lifetime = 3600;
  let sessions = new Set<string>();
  let refreshToken = 'refresh-token-0';

  beforeAll(async () => {
    upstream = await startFakeUpstream(async (request, response) => {
      const path = request.url.pathname;
      if (path === '/oauth/token') {
        const form = new URLSearchParams(request.body);
        if (form.get('grant_type') === 'refresh_token') {
          if (form.get('refresh_token') !== refreshToken)
            return sendJson(response, { error: 'invalid_grant' }, 400);
          // Each refresh token is good once: the answer rotates it.
          refreshToken = `refresh-token-${Number(refreshToken.split('-')[2]) + 1}`;
          const token = `access-token-${++issued}`;
          valid.set(token, Date.now() + lifetime * 1000);
          return sendJson(response, {
            access_token: token,
            refresh_token: refreshToken,
            expires_in: lifetime,
          });
        }
        if (
          request.headers['content-type'] !== 'application/x-www-form-urlencoded' ||
          form.get('grant_type') !== 'client_credentials' ||
          form.get('client_id') !== 'app-1' ||
          form.get('client_secret') !== CLIENT_SECRET
        )
          return sendJson(response, { error: 'invalid_client' }, 401);
        const token = `access-token-${++issued}`;
        valid.set(token, Date.now() + lifetime * 1000);
        return sendJson(response, {
          access_token: token,
          token_type: 'Bearer',
          expires_in: lifetime,
          scope: form.get('scope'),
        });
      }
      if (path.startsWith('/api/')) {
        const token = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
        if (!((valid.get(token) ?? 0) > request.at)) {
          expiredTokenAnswers++;
          return sendJson(response, { error: 'invalid_token' }, 401);
        }
        if (path === '/api/orders') return sendJson(response, { orders: [{ id: 1 }, { id: 2 }, { id: 3 }] });
        if (path === '/api/slow-orders') {
          // Each page takes a while, so a run of several pages outlasts a short-lived token.
          await sleep(800);
          const page = Number(request.url.searchParams.get('page'));
          return sendJson(response, { orders: page < 5 ? [{ id: page * 2 - 1 }, { id: page * 2 }] : [] });
        }
        if (path === '/api/echo-refresh')
          return sendJson(response, { message: `refresh token ${refreshToken} is due for rotation` }, 400);
        if (path === '/api/echo-token')
          return sendJson(response, { message: `token ${token} lacks the scope orders.write` }, 400);
      }
      if (path === '/session/login') {
        const form = new URLSearchParams(request.body);
        if (form.get('username') !== 'ann' || form.get('password') !== PASSWORD)
          return sendJson(response, { message: 'bad login' }, 401);
        const token = `session-token-${sessions.size + 1}`;
        sessions.add(token);
        return sendJson(response, { session: { id: token } });
      }
      if (path === '/session/cards') {
        if (!sessions.has(String(request.headers['x-session-id'])))
          return sendJson(response, { message: 'login first' }, 401);
        return sendJson(response, [{ id: 'a' }, { id: 'b' }]);
      }
      if (path === '/session/echo') {
        const sid = String(request.url.searchParams.get('sid'));
        if (!sessions.has(sid)) return sendJson(response, { message: 'login first' }, 401);
        return sendJson(response, { error: `bad request for session ${sid}` }, 400);
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
    valid = new Map();
    expiredTokenAnswers = 0;
    refreshToken = 'refresh-token-0';
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
    expect(row.token_cache_encrypted).not.toContain('access-token-1');
  });

  it('gets a new token when the cached one is about to expire, and after a 401', async () => {
    lifetime = 1; // renewed once half of it has passed
    const instance = await connect(testApp, oauthSpec(), {
      auth_data: { client_id: 'app-1', client_secret: CLIENT_SECRET },
    });
    expect((await instance.run()).run).toMatchObject({ status: 'succeeded' });
    await sleep(600); // the token is still good, but within its renewal margin
    lifetime = 3600;
    expect((await instance.run()).run).toMatchObject({ status: 'succeeded' });
    expect(tokenRequests()).toHaveLength(2);
    expect(expiredTokenAnswers).toBe(0);

    valid.clear(); // the upstream revokes every token it gave
    const { run, stored } = await instance.run();
    expect(run).toMatchObject({ status: 'succeeded', row_count: 3 });
    expect(stored).toBe(3);
    expect(tokenRequests()).toHaveLength(3);
    expect(expiredTokenAnswers).toBe(1);
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
  it('renews a short-lived OAuth2 token before a request would carry it expired, mid-run', async () => {
    lifetime = 2;
    const instance = await connect(
      testApp,
      {
        ...oauthSpec(),
        operations: [
          {
            id: 'orders',
            url_path: '/api/slow-orders',
            response_path: 'orders',
            pagination: { type: 'page', page_size: 2 },
          },
        ],
      },
      { auth_data: { client_id: 'app-1', client_secret: CLIENT_SECRET } },
    );
    const { run, stored } = await instance.run();
    expect(run).toMatchObject({ status: 'succeeded', row_count: 8, pages_fetched: 5 });
    expect(stored).toBe(8);
    expect(expiredTokenAnswers).toBe(0);
    expect(tokenRequests().length).toBeGreaterThanOrEqual(2);
  });
  /** The run's error as the run history, the instance list and the Refresh answer show it. */
  async function failureEverywhere(instance: ConnectedInstance): Promise<string[]> {
    const { run } = await instance.run();
    expect(run).toMatchObject({ status: 'failed' });
    const [mine] = (await instance.agent.get('/api/connectors/my').expect(200)).body as Array<{
      last_run: { error: string };
    }>;
    const refresh = await instance.agent
      .post(`/api/connectors/run/${instance.id}`)
      .set('Origin', TEST_ORIGIN)
      .expect(502);
    return [String(run.error), mine.last_run.error, String(refresh.body.message)];
  }

  const sessionEchoSpec = () => ({
    base_url: upstream.origin,
    auth: {
      type: 'session' as const,
      in: 'query' as const,
      name: 'sid',
      format: '{{session_token}}',
      login: {
        url_path: '/session/login',
        body: { username: '{{username}}', password: '{{password}}' },
        body_format: 'form' as const,
        token_path: 'session.id',
      },
      fields: [{ key: 'username' }, { key: 'password' }],
    },
    operations: [{ id: 'echo', url_path: '/session/echo' }],
  });

  it('masks a session token the upstream echoes in the run error, last_run and the Refresh answer', async () => {
    const instance = await connect(testApp, sessionEchoSpec(), {
      auth_data: { username: 'ann', password: PASSWORD },
    });
    const shown = await failureEverywhere(instance);
    expect(sessions.size).toBeGreaterThan(0);
    for (const text of shown) {
      expect(text).toMatch(
        /HTTP 400 Bad Request from 127\.0\.0\.1:\d+\/session\/echo: .*bad request for session \*\*\*/,
      );
      for (const token of sessions) expect(text).not.toContain(token);
    }
  });

  it('test read lists a session token sent in the query masked, and masks it in the error', async () => {
    const instance = await connect(testApp, sessionEchoSpec(), {
      auth_data: { username: 'ann', password: PASSWORD },
    });
    const answer = (
      await instance.agent
        .post('/api/connectors/test-read')
        .set('Origin', TEST_ORIGIN)
        .send({ instance_id: instance.id })
        .expect(200)
    ).body as { requests: Array<{ url: string }>; error: string };
    expect(sessions.size).toBe(1);
    const [token] = sessions;
    expect(answer.requests.map((entry) => entry.url)).toEqual([
      expect.stringMatching(/\/session\/echo\?sid=\*\*\*$/),
    ]);
    expect(answer.error).toContain('bad request for session ***');
    expect(JSON.stringify(answer)).not.toContain(token);
  });

  it('masks an OAuth2 access token the upstream echoes in the run error, last_run and the Refresh answer', async () => {
    const instance = await connect(
      testApp,
      { ...oauthSpec(), operations: [{ id: 'echo', url_path: '/api/echo-token' }] },
      { auth_data: { client_id: 'app-1', client_secret: CLIENT_SECRET } },
    );
    const shown = await failureEverywhere(instance);
    expect(valid.size).toBeGreaterThan(0);
    for (const text of shown) {
      expect(text).toContain('"message":"token *** lacks the scope orders.write"');
      for (const token of valid.keys()) expect(text).not.toContain(token);
    }
  });
  it('masks a rotated refresh token the upstream echoes in the run error', async () => {
    const instance = await connect(
      testApp,
      {
        base_url: upstream.origin,
        auth: {
          type: 'oauth2',
          grant_type: 'refresh_token',
          token_url: '/oauth/token',
          fields: [{ key: 'client_id' }, { key: 'refresh_token' }],
        },
        operations: [{ id: 'echo', url_path: '/api/echo-refresh' }],
      },
      { auth_data: { client_id: 'app-1', refresh_token: 'refresh-token-0' } },
    );
    const shown = await failureEverywhere(instance);
    expect(refreshToken).toBe('refresh-token-1');
    for (const text of shown) {
      expect(text).toContain('"message":"refresh token *** is due for rotation"');
      expect(text).not.toContain('refresh-token-1');
    }
  });

  it('masks a session token the upstream echoes in an options look-up error', async () => {
    const instance = await connect(
      testApp,
      {
        ...sessionEchoSpec(),
        fields: [{ key: 'board', type: 'select', options_endpoint: '/session/echo' }],
      },
      { auth_data: { username: 'ann', password: PASSWORD } },
    );
    const answer = await instance.agent
      .get('/api/connectors/options')
      .query({ connector_id: instance.connectorId, field: 'board', instance_id: instance.id })
      .expect(400);
    expect(sessions.size).toBe(1);
    expect(answer.body.message).toMatch(/^Could not load options: .*bad request for session \*\*\*/);
    for (const token of sessions) expect(JSON.stringify(answer.body)).not.toContain(token);
  });
});
