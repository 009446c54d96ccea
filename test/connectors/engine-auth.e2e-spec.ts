import { MemoryTokenStore } from '../../src/connectors/engine/auth/token-store';
import { ConnectorEngine } from '../../src/connectors/engine/connector-engine';
import { plan, records, testEngine } from './support/engine';
import { FakeUpstream, sendJson, startFakeUpstream } from './support/fake-upstream';

/** The auth stage on its own: refresh-token rotation and session re-login after a 401. */
describe('connector engine: token exchange and session login', () => {
  let upstream: FakeUpstream;
  let engine: ConnectorEngine;
  let refreshToken = 'rt-1';
  let accessToken = '';
  let session = '';
  let dropNextSession = false;

  beforeAll(async () => {
    upstream = await startFakeUpstream((request, response) => {
      const path = request.url.pathname;
      if (path === '/token') {
        const form = new URLSearchParams(request.body);
        if (form.get('grant_type') !== 'refresh_token' || form.get('refresh_token') !== refreshToken)
          return sendJson(response, { error: 'invalid_grant' }, 400);
        // Each refresh token is good once: the answer rotates it.
        refreshToken = `rt-${Number(refreshToken.slice(3)) + 1}`;
        accessToken = `at-${refreshToken}`;
        return sendJson(response, {
          access_token: accessToken,
          refresh_token: refreshToken,
          expires_in: 3600,
        });
      }
      if (path === '/me') {
        if (request.headers.authorization !== `Bearer ${accessToken}`) return sendJson(response, {}, 401);
        return sendJson(response, [{ id: 1 }]);
      }
      if (path === '/login') {
        session = `s-${Date.now()}-${Math.random()}`;
        return sendJson(response, {}, 200, { 'x-auth-token': session });
      }
      if (path === '/data') {
        if (dropNextSession) {
          dropNextSession = false;
          session = 'dropped';
        }
        if (request.url.searchParams.get('sid') !== session) return sendJson(response, {}, 401);
        return sendJson(response, [{ id: 'x' }, { id: 'y' }]);
      }
      return sendJson(response, {}, 404);
    });
    engine = testEngine();
  });
  afterAll(async () => {
    engine.destroy();
    await upstream.close();
  });

  it('refresh_token: keeps the rotated refresh token in the store and uses it for the next exchange', async () => {
    const store = new MemoryTokenStore();
    const refreshPlan = plan({
      urlTemplate: `${upstream.origin}/me`,
      baseUrl: upstream.origin,
      auth: {
        type: 'oauth2',
        grant_type: 'refresh_token',
        token_url: '/token',
        fields: [{ key: 'client_id' }, { key: 'refresh_token' }],
      },
      authData: { client_id: 'c', refresh_token: 'rt-1' },
      tokenStore: store,
    });
    expect(await records(engine, refreshPlan)).toHaveLength(1);
    expect((await store.load())?.refresh_token).toBe('rt-2');
    accessToken = 'revoked';
    expect(await records(engine, refreshPlan)).toHaveLength(1);
    expect((await store.load())?.refresh_token).toBe('rt-3');
  });

  it('session: takes the token from a response header, sends it in the query, logs in again after a 401', async () => {
    const sessionPlan = plan({
      urlTemplate: `${upstream.origin}/data`,
      baseUrl: upstream.origin,
      auth: {
        type: 'session',
        in: 'query',
        name: 'sid',
        format: '{{session_token}}',
        login: { url_path: '/login', token_header: 'X-Auth-Token' },
        fields: [{ key: 'user' }],
      },
      authData: { user: 'ann' },
    });
    expect(await records(engine, sessionPlan)).toHaveLength(2);
    upstream.requests.splice(0);
    dropNextSession = true;
    // The upstream forgets the session: the 401 leads to one more login and the request succeeds.
    expect(await records(engine, sessionPlan)).toHaveLength(2);
    expect(upstream.requests.map((request) => request.url.pathname)).toEqual([
      '/login',
      '/data',
      '/login',
      '/data',
    ]);
  });
});
