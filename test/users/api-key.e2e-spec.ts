import { UsersService } from '../../src/users/users.service';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

describe('personal API keys (POST dev/apikey)', () => {
  let testApp: TestApp;
  let users: UsersService;

  beforeAll(async () => {
    testApp = await createTestApp();
    users = testApp.app.get(UsersService);
  });
  afterAll(() => testApp.close());

  const generate = (agent: Awaited<ReturnType<typeof createLoggedInUser>>['agent'], email: string) =>
    agent.post('/api/dev/apikey').set('Origin', TEST_ORIGIN).send({ email });

  it('keeps every answer that holds the key out of caches (Cache-Control: no-store)', async () => {
    const { user, agent } = await createLoggedInUser(testApp);
    const generated = await generate(agent, user.email).expect(200);
    expect(generated.headers['cache-control']).toBe('no-store');
    const me = await agent.get('/api/users/me').expect(200);
    expect(me.body.api_key).toBe(generated.body.api_key);
    expect(me.headers['cache-control']).toBe('no-store');
  });

  it('generates a random URL-safe key of at least 32 bytes and shows it in users/me', async () => {
    const { user, agent } = await createLoggedInUser(testApp);
    const response = await generate(agent, user.email).expect(200);
    expect(response.body).toEqual({ api_key: expect.stringMatching(/^[A-Za-z0-9_-]{43,}$/) });
    const me = await agent.get('/api/users/me').expect(200);
    expect(me.body.api_key).toBe(response.body.api_key);
  });

  it('accepts the own e-mail in another letter case', async () => {
    const { user, agent } = await createLoggedInUser(testApp);
    await generate(agent, user.email.toUpperCase()).expect(200);
  });

  it("refuses with 403 a key for another user's e-mail and leaves that user's key alone", async () => {
    const victim = await createLoggedInUser(testApp);
    const victimKey = (await generate(victim.agent, victim.user.email).expect(200)).body.api_key;
    const { agent } = await createLoggedInUser(testApp);
    const response = await generate(agent, victim.user.email).expect(403);
    expect(response.body.message).toBe('You can only generate an API key for your own account');
    expect(await users.findByApiKey(victimKey)).toMatchObject({ id: victim.user.id });
  });

  it('answers 401 when logged out', async () => {
    await testApp.http
      .post('/api/dev/apikey')
      .set('Origin', TEST_ORIGIN)
      .send({ email: 'a@example.test' })
      .expect(401);
  });

  it('answers 400 without a valid e-mail', async () => {
    const { agent } = await createLoggedInUser(testApp);
    await generate(agent, 'not-an-email').expect(400);
  });

  it('rotates: the new key is found by findByApiKey and the old one no longer is', async () => {
    const { user, agent } = await createLoggedInUser(testApp, { proUser: true });
    const oldKey = (await generate(agent, user.email).expect(200)).body.api_key;
    expect(await users.findByApiKey(oldKey)).toEqual({
      id: user.id,
      email: user.email,
      name: user.name,
      proUser: true,
      blogEditor: false,
    });
    const newKey = (await generate(agent, user.email).expect(200)).body.api_key;
    expect(newKey).not.toBe(oldKey);
    expect(await users.findByApiKey(oldKey)).toBeNull();
    expect(await users.findByApiKey(newKey)).toMatchObject({ id: user.id });
  });

  it('finds nobody for an unknown, empty or absurdly long key', async () => {
    expect(await users.findByApiKey('no-such-key-0000000000000000000000000000000')).toBeNull();
    expect(await users.findByApiKey('')).toBeNull();
    expect(await users.findByApiKey('x'.repeat(10_000))).toBeNull();
  });

  it('stores only a SHA-256 hash and an encrypted copy, so a database dump holds no usable key', async () => {
    const { user, agent } = await createLoggedInUser(testApp);
    const key = (await generate(agent, user.email).expect(200)).body.api_key;
    const [row] = await testApp.dataSource.query(
      'SELECT row_to_json(users)::text AS dump, api_key_hash, api_key_encrypted FROM users WHERE id = $1',
      [user.id],
    );
    expect(row.dump).not.toContain(key);
    expect(row.api_key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.api_key_encrypted).toMatch(/^v1\./);
  });

  it('refuses a cross-origin key generation and keeps the old key working', async () => {
    const { user, agent } = await createLoggedInUser(testApp);
    const key = (await generate(agent, user.email).expect(200)).body.api_key;
    await agent
      .post('/api/dev/apikey')
      .set('Origin', 'https://evil.example')
      .send({ email: user.email })
      .expect(403);
    expect(await users.findByApiKey(key)).toMatchObject({ id: user.id });
  });
});
