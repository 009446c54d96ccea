import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { RateLimiterService } from '../../src/common/rate-limit/rate-limiter.service';
import { LOGIN_FAILURES_PER_EMAIL } from '../../src/users/auth/credentials.service';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser, TestUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { enableTwoFactor, waitForMail } from './support/account-security';

type Agent = TestAgent<Test>;

/**
 * A new secret ends what the old one opened: a reset (someone else may be in) ends every session,
 * the API key (a new one replaces it), named tokens and trusted browsers; a change ends the other
 * sessions and, unless told not to, the key and tokens; turning two-factor sign-in on ends the
 * sessions opened with the password alone.
 */
describe('credentials end with the password', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp({ TRUST_PROXY: 'true' });
  });
  afterAll(() => testApp.close());

  const randomIp = () => `10.61.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

  /** A user with a dataset, a personal API key and a named token of each scope, each working. */
  async function userWithApiAccess() {
    const { user, agent } = await createLoggedInUser(testApp);
    const datasetId = await uploadDataset(agent);
    const key = (
      await agent.post('/api/dev/apikey').set('Origin', TEST_ORIGIN).send({ email: user.email }).expect(200)
    ).body.api_key as string;
    const token = (
      await agent
        .post('/api/users/tokens')
        .set('Origin', TEST_ORIGIN)
        .send({ name: 'BI refresh', scopes: ['stream', 'query'] })
        .expect(201)
    ).body.token as string;
    for (const secret of [key, token]) {
      await stream(datasetId, secret).expect(200);
      await query(secret).expect(200);
    }
    return { user, agent, datasetId, key, token };
  }
  const stream = (datasetId: string, secret: string) =>
    testApp.http.get(`/api/stream/data/${datasetId}`).query({ api_key: secret });
  const query = (secret: string) =>
    testApp.http.post('/api/query').set('X-API-Key', secret).send({ sql: 'SELECT 1 AS one' });
  const changePassword = (agent: Agent, user: TestUser, extra: object) =>
    agent
      .post('/api/users/change-password')
      .set('Origin', TEST_ORIGIN)
      .send({ current_password: user.password, new_password: 'a-brand-new-password-2026', ...extra });
  const login = (agent: Agent | TestApp['http'], email: string, password: string) =>
    agent
      .post('/api/users/login')
      .set('Origin', TEST_ORIGIN)
      .set('X-Forwarded-For', randomIp())
      .send({ email, password });

  async function resetPassword(email: string, newPassword: string) {
    await testApp.http
      .post('/api/users/forgot-password')
      .set('Origin', TEST_ORIGIN)
      .set('X-Forwarded-For', randomIp())
      .send({ email })
      .expect(200);
    const mail = await waitForMail(testApp, email, 'Reset your password');
    const link = mail.links.find((candidate) => candidate.includes('/reset-password?token='))!;
    await testApp.http
      .post('/api/users/reset-password')
      .set('Origin', TEST_ORIGIN)
      .send({ token: new URL(link).searchParams.get('token'), new_password: newPassword })
      .expect(200);
    return mail;
  }

  it('a reset ends every session, the API key (a new one replaces it) and every named token, and the mail says so', async () => {
    const { user, agent, datasetId, key, token } = await userWithApiAccess();
    const mail = await resetPassword(user.email, 'reset-new-password-2026');
    expect(mail.text).toContain('you are signed out everywhere');
    expect(mail.text).toContain('personal API key is replaced');
    expect(mail.text).toContain('API tokens stop');

    await agent.get('/api/users/me').expect(401);
    for (const secret of [key, token]) {
      await stream(datasetId, secret).expect(401);
      await query(secret).expect(401);
    }
    const [{ tokens }] = await testApp.dataSource.query(
      `SELECT count(*)::int AS tokens FROM api_tokens WHERE user_id = $1`,
      [user.id],
    );
    expect(tokens).toBe(0);

    const owner = testApp.agent();
    await login(owner, user.email, 'reset-new-password-2026').expect(200);
    const fresh = (await owner.get('/api/users/me').expect(200)).body.api_key as string;
    expect(fresh).toBeTruthy();
    expect(fresh).not.toBe(key);
    await stream(datasetId, fresh).expect(200);
  });

  it('a reset ends the trust of browsers that logged in before: they are strangers to a locked account', async () => {
    const { user } = await createLoggedInUser(testApp);
    const trusted = testApp.agent();
    await login(trusted, user.email, user.password).expect(200);
    const lockAccount = async () => {
      const limiter = testApp.app.get(RateLimiterService);
      for (let hit = 0; hit < LOGIN_FAILURES_PER_EMAIL.limit; hit++)
        await limiter.hit(`login-failures:email:${user.email.toLowerCase()}`, LOGIN_FAILURES_PER_EMAIL);
    };
    // Before the reset the browser's own allowance lets it through a locked account …
    await lockAccount();
    await login(trusted, user.email, user.password).expect(200);
    await testApp.app.get(RateLimiterService).reset(`login-failures:email:${user.email.toLowerCase()}`);

    await resetPassword(user.email, 'reset-new-password-2027');
    // … after it, the same cookie vouches for nothing.
    await lockAccount();
    await login(trusted, user.email, 'reset-new-password-2027').expect(429);
  });

  it('a password change ends the API key and named tokens by default, and keeps this session', async () => {
    const { user, agent, datasetId, key, token } = await userWithApiAccess();
    const other = testApp.agent();
    await login(other, user.email, user.password).expect(200);
    await changePassword(agent, user, {}).expect(200);
    await agent.get('/api/users/me').expect(200);
    await other.get('/api/users/me').expect(401);
    for (const secret of [key, token]) {
      await stream(datasetId, secret).expect(401);
      await query(secret).expect(401);
    }
    const fresh = (await agent.get('/api/users/me').expect(200)).body.api_key as string;
    expect(fresh).not.toBe(key);
    await stream(datasetId, fresh).expect(200);
  });

  it('with end_api_access: false the key and tokens keep working', async () => {
    const { user, agent, datasetId, key, token } = await userWithApiAccess();
    await changePassword(agent, user, { end_api_access: false }).expect(200);
    for (const secret of [key, token]) await stream(datasetId, secret).expect(200);
  });

  it('refuses an end_api_access that is not a boolean', async () => {
    const { user, agent } = await createLoggedInUser(testApp);
    const refused = await changePassword(agent, user, { end_api_access: 'yes' }).expect(400);
    expect(refused.body.message).toBe('end_api_access is true or false');
  });

  it('turning two-factor sign-in on ends the sessions opened before, which can no longer mint a key', async () => {
    const { user, agent } = await createLoggedInUser(testApp);
    const older = testApp.agent();
    await login(older, user.email, user.password).expect(200);
    await older.get('/api/users/me').expect(200);
    await enableTwoFactor(agent);
    await agent.get('/api/users/me').expect(200);
    await older.get('/api/users/me').expect(401);
    await older.post('/api/dev/apikey').set('Origin', TEST_ORIGIN).send({ email: user.email }).expect(401);
  });
});
