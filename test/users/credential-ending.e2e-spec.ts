import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { RateLimiterService } from '../../src/common/rate-limit/rate-limiter.service';
import { LOGIN_FAILURES_PER_EMAIL } from '../../src/users/auth/credentials.service';
import { uploadDataset } from '../factories/asset.factory';
import { createUser, loginAs, TestUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { enableTwoFactor, waitForMail } from './support/account-security';

type Agent = TestAgent<Test>;

/**
 * A reset, a password change and turning two-factor sign-in on each end what someone else may
 * hold: no API key, named token, session or trusted browser outlives them unless the owner asks.
 */
describe('credentials end with the password', () => {
  let testApp: TestApp;
  let limiter: RateLimiterService;

  beforeAll(async () => {
    testApp = await createTestApp({ TRUST_PROXY: 'true' });
    limiter = testApp.app.get(RateLimiterService);
  });
  afterAll(() => testApp.close());

  const randomIp = () => `10.61.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  const login = (browser: Agent | TestApp['http'], email: string, password: string, ip = randomIp()) =>
    browser
      .post('/api/users/login')
      .set('Origin', TEST_ORIGIN)
      .set('X-Forwarded-For', ip)
      .send({ email, password });

  /** A user with a dataset, an API key and a named token, each of which streams the dataset. */
  const userWithCredentials = async () => {
    const user = await createUser(testApp.dataSource);
    const agent = await loginAs(testApp, user);
    const datasetId = await uploadDataset(agent, { title: 'Credential data' });
    const key: string = (
      await agent.post('/api/dev/apikey').set('Origin', TEST_ORIGIN).send({ email: user.email }).expect(200)
    ).body.api_key;
    const token: string = (
      await agent
        .post('/api/users/tokens')
        .set('Origin', TEST_ORIGIN)
        .send({ name: 'Power BI', scopes: ['stream'] })
        .expect(201)
    ).body.token;
    const streams = (secret: string) =>
      testApp.http.get(`/api/stream/data/${datasetId}`).set('X-API-Key', secret);
    await streams(key).expect(200);
    await streams(token).expect(200);
    return { user, agent, key, token, streams };
  };

  const resetPassword = async (user: TestUser, newPassword: string) => {
    await testApp.http
      .post('/api/users/forgot-password')
      .set('Origin', TEST_ORIGIN)
      .set('X-Forwarded-For', randomIp())
      .send({ email: user.email })
      .expect(200);
    const mail = await waitForMail(testApp, user.email, 'Reset your password');
    const link = mail.links.find((candidate) => candidate.includes('/reset-password?token='))!;
    await testApp.http
      .post('/api/users/reset-password')
      .set('Origin', TEST_ORIGIN)
      .send({ token: new URL(link).searchParams.get('token'), new_password: newPassword })
      .expect(200);
    return mail;
  };

  it('a reset ends the API key (a new one is issued), named tokens and sessions, and the mail says so', async () => {
    const { user, agent, key, token, streams } = await userWithCredentials();
    const mail = await resetPassword(user, 'brand-new-password-1');
    expect(mail.text).toContain('ends your API key');
    expect(mail.text).toContain('every named API token');
    await streams(key).expect(401);
    await streams(token).expect(401);
    await agent.get('/api/users/me').expect(401);
    expect(
      (await testApp.dataSource.query(`SELECT 1 FROM api_tokens WHERE user_id = $1`, [user.id])).length,
    ).toBe(0);
    const [row] = await testApp.dataSource.query(`SELECT api_key_hash FROM users WHERE id = $1`, [user.id]);
    expect(row.api_key_hash).toEqual(expect.any(String));
  });

  it('a reset ends the trusted-device standing of browsers that logged in before it', async () => {
    const { user } = await userWithCredentials();
    const oldBrowser = testApp.agent();
    await login(oldBrowser, user.email, user.password).expect(200);
    await resetPassword(user, 'brand-new-password-2');
    // The account is locked for strangers; a browser trusted before the reset is a stranger now.
    for (let attempt = 0; attempt < LOGIN_FAILURES_PER_EMAIL.limit; attempt++) {
      await limiter.hit(`login-failures:email:${user.email.toLowerCase()}`, LOGIN_FAILURES_PER_EMAIL);
    }
    await login(oldBrowser, user.email, 'brand-new-password-2').expect(429);
  });

  it('a password change ends the API key and named tokens by default', async () => {
    const { user, agent, key, token, streams } = await userWithCredentials();
    await agent
      .post('/api/users/change-password')
      .set('Origin', TEST_ORIGIN)
      .send({ current_password: user.password, new_password: 'brand-new-password-3' })
      .expect(200);
    await streams(key).expect(401);
    await streams(token).expect(401);
    await agent.get('/api/users/me').expect(200);
  });

  it('a password change with rotate_api_key: true ends named tokens too; false keeps both', async () => {
    const ended = await userWithCredentials();
    await ended.agent
      .post('/api/users/change-password')
      .set('Origin', TEST_ORIGIN)
      .send({
        current_password: ended.user.password,
        new_password: 'brand-new-password-4',
        rotate_api_key: true,
      })
      .expect(200);
    await ended.streams(ended.key).expect(401);
    await ended.streams(ended.token).expect(401);

    const kept = await userWithCredentials();
    await kept.agent
      .post('/api/users/change-password')
      .set('Origin', TEST_ORIGIN)
      .send({
        current_password: kept.user.password,
        new_password: 'brand-new-password-5',
        rotate_api_key: false,
      })
      .expect(200);
    await kept.streams(kept.key).expect(200);
    await kept.streams(kept.token).expect(200);
  });

  it('turning two-factor sign-in on ends every other session, keeping the current one', async () => {
    const user = await createUser(testApp.dataSource);
    const laptop = await loginAs(testApp, user);
    const older = await loginAs(testApp, user);
    await enableTwoFactor(laptop);
    await laptop.get('/api/users/me').expect(200);
    await older.get('/api/users/me').expect(401);
    await older.post('/api/dev/apikey').set('Origin', TEST_ORIGIN).send({ email: user.email }).expect(401);
  });
});
