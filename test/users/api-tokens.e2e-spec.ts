import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { formerEntitySetName } from '../../src/odata/odata-entity-set';
import { sha256Hex } from '../../src/common/crypto/secret-box';
import { MAX_TOKENS_PER_USER } from '../../src/users/tokens/api-tokens.service';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser, createUser, TestUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

type Agent = TestAgent<Test>;

describe('named API tokens (users/tokens)', () => {
  let testApp: TestApp;
  let owner: { user: TestUser; agent: Agent };
  let datasetId: string;

  beforeAll(async () => {
    testApp = await createTestApp();
    owner = await createLoggedInUser(testApp);
    datasetId = await uploadDataset(owner.agent, { title: 'Token data' });
  });
  afterAll(() => testApp.close());

  const create = (agent: Agent, body: object) =>
    agent.post('/api/users/tokens').set('Origin', TEST_ORIGIN).send(body);
  const stream = (token: string) =>
    testApp.http.get(`/api/stream/data/${datasetId}`).query({ api_key: token });
  const odata = (token: string) =>
    testApp.http
      .get(`/api/odata/${formerEntitySetName({ kind: 'asset', id: datasetId })}`)
      .set('X-API-Key', token);

  it('creates a token shown once, stores only its hash, and lists it with name, scopes and hint', async () => {
    const created = await create(owner.agent, {
      name: 'Power BI',
      scopes: ['stream'],
      expires_in_days: 30,
    }).expect(201);
    expect(created.headers['cache-control']).toBe('no-store');
    const { token, id, expires_at } = created.body;
    expect(token).toMatch(/^dmt_[A-Za-z0-9_-]{43}$/);
    expect(new Date(expires_at).getTime() - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);

    const [stored] = await testApp.dataSource.query(`SELECT * FROM api_tokens WHERE id = $1`, [id]);
    expect(stored.token_hash).toBe(sha256Hex(token));
    expect(JSON.stringify(stored)).not.toContain(token);

    const listed = await owner.agent.get('/api/users/tokens').expect(200);
    const entry = listed.body.find((item: { id: string }) => item.id === id);
    expect(entry).toMatchObject({ name: 'Power BI', scopes: ['stream'], last_used_at: null });
    expect(entry.hint).toBe(`${token.slice(0, 10)}…`);
    expect(JSON.stringify(listed.body)).not.toContain(token);
  });

  it('opens stream links and the OData feed with the stream scope, and records the last use', async () => {
    const { token, id } = (await create(owner.agent, { name: 'Excel', scopes: ['stream'] }).expect(201)).body;
    expect((await stream(token).expect(200)).body).toHaveLength(3);
    expect((await odata(token).expect(200)).body.value).toHaveLength(3);
    const listed = await owner.agent.get('/api/users/tokens').expect(200);
    const entry = listed.body.find((item: { id: string }) => item.id === id);
    expect(Date.now() - new Date(entry.last_used_at).getTime()).toBeLessThan(60_000);
  });

  it('refuses a query-only token on streams and OData with 403', async () => {
    const { token } = (await create(owner.agent, { name: 'Notebook', scopes: ['query'] }).expect(201)).body;
    const refused = await stream(token).expect(403);
    expect(refused.body.message).toBe(
      'This API token may not read streams or OData (it lacks the stream scope)',
    );
    await odata(token).expect(403);
  });

  it('stops a revoked token at once, and the personal key keeps working', async () => {
    const { token, id } = (
      await create(owner.agent, { name: 'Old job', scopes: ['stream', 'query'] }).expect(201)
    ).body;
    await stream(token).expect(200);
    const revoked = await owner.agent
      .delete(`/api/users/tokens/${id}`)
      .set('Origin', TEST_ORIGIN)
      .expect(200);
    expect(revoked.body).toEqual({ message: 'Token revoked' });
    expect((await stream(token).expect(401)).body.message).toBe('Invalid API key');
    const listed = await owner.agent.get('/api/users/tokens').expect(200);
    expect(listed.body.map((item: { id: string }) => item.id)).not.toContain(id);
  });

  it('refuses an expired token', async () => {
    const { token, id } = (
      await create(owner.agent, { name: 'Short', scopes: ['stream'], expires_in_days: 1 }).expect(201)
    ).body;
    await testApp.dataSource.query(
      `UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [id],
    );
    expect((await stream(token).expect(401)).body.message).toBe('Invalid API key');
  });

  it('gives another user neither the token list nor the revocation (404, token intact)', async () => {
    const { token, id } = (await create(owner.agent, { name: 'Mine', scopes: ['stream'] }).expect(201)).body;
    const other = await createLoggedInUser(testApp);
    expect((await other.agent.get('/api/users/tokens').expect(200)).body).toEqual([]);
    const refused = await other.agent
      .delete(`/api/users/tokens/${id}`)
      .set('Origin', TEST_ORIGIN)
      .expect(404);
    expect(refused.body.message).toBe('Token not found');
    await other.agent.delete('/api/users/tokens/not-a-uuid').set('Origin', TEST_ORIGIN).expect(404);
    await stream(token).expect(200);
  });

  it('gives a token of another user no access to this user’s dataset', async () => {
    const other = await createLoggedInUser(testApp);
    const { token } = (await create(other.agent, { name: 'Theirs', scopes: ['stream'] }).expect(201)).body;
    await stream(token).expect(404);
  });

  it('asks visitors to log in', async () => {
    const response = await testApp.http.get('/api/users/tokens').expect(401);
    expect(response.body.message).toBe('Please log in to continue');
    await testApp.http
      .post('/api/users/tokens')
      .set('Origin', TEST_ORIGIN)
      .send({ name: 'x', scopes: ['stream'] })
      .expect(401);
  });

  it.each([
    [{ scopes: ['stream'] }, 'A token name is required'],
    [{ name: '', scopes: ['stream'] }, 'A token name is required'],
    [{ name: 'x'.repeat(101), scopes: ['stream'] }, 'A token name has at most 100 characters'],
    [{ name: 'x', scopes: [] }, 'Choose at least one scope'],
    [{ name: 'x', scopes: ['admin'] }, 'Scopes are stream and query'],
    [{ name: 'x', scopes: ['stream'], expires_in_days: 0 }, 'Expiry is between 1 and 3650 days'],
    [{ name: 'x', scopes: ['stream'], expires_in_days: 1.5 }, 'Expiry is a whole number of days'],
    [{ name: 'x', scopes: ['stream'], user_id: 'someone' }, 'property user_id should not exist'],
  ])('refuses %j with 400 "%s"', async (body, message) => {
    const response = await create(owner.agent, body).expect(400);
    expect(JSON.stringify(response.body)).toContain(message);
  });

  it(`keeps at most ${MAX_TOKENS_PER_USER} tokens per user`, async () => {
    const user = await createUser(testApp.dataSource);
    await testApp.dataSource.query(
      `INSERT INTO api_tokens (user_id, name, scopes, token_hash, token_hint)
       SELECT $1, 'bulk', ARRAY['stream'], md5(random()::text || n), 'dmt_x' FROM generate_series(1, $2) n`,
      [user.id, MAX_TOKENS_PER_USER],
    );
    const agent = testApp.agent();
    await agent
      .post('/api/users/login')
      .set('Origin', TEST_ORIGIN)
      .send({ email: user.email, password: user.password })
      .expect(200);
    const response = await create(agent, { name: 'one more', scopes: ['stream'] }).expect(400);
    expect(response.body.message).toBe(`At most ${MAX_TOKENS_PER_USER} tokens: revoke one first`);
  });
});

describe('changing the password can replace the personal API key', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  async function userWithKey() {
    const { user, agent } = await createLoggedInUser(testApp);
    const key = (
      await agent.post('/api/dev/apikey').set('Origin', TEST_ORIGIN).send({ email: user.email }).expect(200)
    ).body.api_key as string;
    const datasetId = await uploadDataset(agent);
    return { user, agent, key, datasetId };
  }
  const change = (agent: Agent, user: TestUser, extra: object) =>
    agent
      .post('/api/users/change-password')
      .set('Origin', TEST_ORIGIN)
      .send({ current_password: user.password, new_password: 'a-brand-new-password-2026', ...extra });

  it('with rotate_api_key: the old key stops working and users/me shows the new one', async () => {
    const { user, agent, key, datasetId } = await userWithKey();
    expect((await change(agent, user, { rotate_api_key: true }).expect(200)).body).toEqual({
      message: 'Password changed',
    });
    await testApp.http.get(`/api/stream/data/${datasetId}`).query({ api_key: key }).expect(401);
    const fresh = (await agent.get('/api/users/me').expect(200)).body.api_key;
    expect(fresh).not.toBe(key);
    await testApp.http.get(`/api/stream/data/${datasetId}`).query({ api_key: fresh }).expect(200);
  });

  it('without it the key is replaced too (the default); with rotate_api_key: false it stays as it was', async () => {
    const replaced = await userWithKey();
    await change(replaced.agent, replaced.user, {}).expect(200);
    await testApp.http
      .get(`/api/stream/data/${replaced.datasetId}`)
      .query({ api_key: replaced.key })
      .expect(401);
    const kept = await userWithKey();
    await change(kept.agent, kept.user, { rotate_api_key: false }).expect(200);
    await testApp.http.get(`/api/stream/data/${kept.datasetId}`).query({ api_key: kept.key }).expect(200);
  });

  it('refuses a rotate_api_key that is not a boolean', async () => {
    const { user, agent } = await userWithKey();
    const response = await change(agent, user, { rotate_api_key: 'yes' }).expect(400);
    expect(response.body.message).toBe('rotate_api_key is true or false');
  });
});
