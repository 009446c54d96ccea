import { randomUUID } from 'node:crypto';
import { RateLimiterService } from '../../src/common/rate-limit/rate-limiter.service';
import { LOGIN_FAILURES_PER_EMAIL } from '../../src/users/auth/credentials.service';
import { createLoggedInUser, createUser } from '../factories/user.factory';
import { outboxFor } from '../factories/mail.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { waitForMail } from './support/account-security';

const SENT =
  'If an account exists for that address, we have sent it a link to reset the password. The link works once, within 1 hour.';
const INVALID_LINK = 'This password reset link is invalid or has expired.';
const SUBJECT = 'Reset your password';

describe('forgot password (POST users/forgot-password, users/reset-password)', () => {
  let testApp: TestApp;

  // Behind a trusted proxy, so each test asks from its own client address.
  beforeAll(async () => {
    testApp = await createTestApp({ TRUST_PROXY: 'true' });
  });
  afterAll(() => testApp.close());

  const randomIp = () => `10.60.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  const forgot = (email: string, clientIp = randomIp()) =>
    testApp.http
      .post('/api/users/forgot-password')
      .set('Origin', TEST_ORIGIN)
      .set('X-Forwarded-For', clientIp)
      .send({ email });
  const reset = (token: string, newPassword: string) =>
    testApp.http
      .post('/api/users/reset-password')
      .set('Origin', TEST_ORIGIN)
      .send({ token, new_password: newPassword });
  const login = (email: string, password: string) =>
    testApp.http
      .post('/api/users/login')
      .set('Origin', TEST_ORIGIN)
      .set('X-Forwarded-For', randomIp())
      .send({ email, password });
  const tokenOf = async (email: string) => {
    const message = await waitForMail(testApp, email, SUBJECT);
    const link = message.links.find((candidate) => candidate.includes('/reset-password?token='));
    if (!link) throw new Error('No reset link in the mail');
    return new URL(link).searchParams.get('token')!;
  };

  it('answers a known and an unknown address the same, and mails only the known one a link', async () => {
    const user = await createUser(testApp.dataSource);
    const unknownEmail = `nobody-${randomUUID()}@example.test`;
    const known = await forgot(user.email).expect(200);
    const unknown = await forgot(unknownEmail).expect(200);
    expect(known.body).toEqual({ message: SENT });
    expect(unknown.body).toEqual(known.body);
    const message = await waitForMail(testApp, user.email, SUBJECT);
    expect(message.links[0]).toMatch(new RegExp(`^${TEST_ORIGIN}/reset-password\\?token=[\\w-]{43}$`));
    expect(await outboxFor(testApp, unknownEmail)).toEqual([]);
  });

  it('sets the new password, ends every session of the account, and the link works only once', async () => {
    const { user, agent } = await createLoggedInUser(testApp);
    await forgot(user.email).expect(200);
    const token = await tokenOf(user.email);
    const answer = await reset(token, 'brand-new-password-1').expect(200);
    expect(answer.body.message).toBe('Your password has been reset. Please log in with the new password.');
    await agent.get('/api/users/me').expect(401);
    await login(user.email, user.password).expect(401);
    await login(user.email, 'brand-new-password-1').expect(200);
    const again = await reset(token, 'another-new-password').expect(400);
    expect(again.body.message).toBe(INVALID_LINK);
  });

  it('ends the older links of the account when one of them is used', async () => {
    const user = await createUser(testApp.dataSource);
    await forgot(user.email).expect(200);
    const older = await tokenOf(user.email);
    await testApp.dataSource.query(`DELETE FROM mail_outbox WHERE recipient = $1`, [user.email]);
    await forgot(user.email).expect(200);
    const newer = await tokenOf(user.email);
    expect(newer).not.toBe(older);
    await reset(newer, 'brand-new-password-2').expect(200);
    expect((await reset(older, 'brand-new-password-3').expect(400)).body.message).toBe(INVALID_LINK);
  });

  it('refuses a link older than one hour', async () => {
    const user = await createUser(testApp.dataSource);
    await forgot(user.email).expect(200);
    const token = await tokenOf(user.email);
    await testApp.dataSource.query(
      `UPDATE password_reset_tokens SET expires_at = now() - interval '1 second'
        WHERE user_id = $1`,
      [user.id],
    );
    expect((await reset(token, 'brand-new-password-4').expect(400)).body.message).toBe(INVALID_LINK);
    await login(user.email, user.password).expect(200);
  });

  it('expires a link one hour after it was asked for, and stores only its hash', async () => {
    const user = await createUser(testApp.dataSource);
    await forgot(user.email).expect(200);
    const token = await tokenOf(user.email);
    const [row] = await testApp.dataSource.query(
      `SELECT token_hash, extract(epoch FROM expires_at - created_at) AS lifetime
         FROM password_reset_tokens WHERE user_id = $1`,
      [user.id],
    );
    expect(Math.round(Number(row.lifetime))).toBe(3600);
    expect(row.token_hash).not.toContain(token);
  });

  it('refuses an unknown token and a short new password', async () => {
    expect((await reset('not-a-real-token', 'brand-new-password').expect(400)).body.message).toBe(
      INVALID_LINK,
    );
    const user = await createUser(testApp.dataSource);
    await forgot(user.email).expect(200);
    const short = await reset(await tokenOf(user.email), 'short').expect(400);
    expect(short.body.message).toBe('Password must be at least 8 characters long');
  });

  it('mails one address at most 3 links an hour, still with the same answer', async () => {
    const user = await createUser(testApp.dataSource);
    for (let request = 1; request <= 4; request++) {
      expect((await forgot(user.email).expect(200)).body.message).toBe(SENT);
    }
    await waitForMail(testApp, user.email, SUBJECT);
    const [{ links }] = await testApp.dataSource.query(
      `SELECT count(*)::int AS links FROM password_reset_tokens WHERE user_id = $1`,
      [user.id],
    );
    expect(links).toBe(3);
  });

  it('refuses an address asking for more than 10 links an hour with 429', async () => {
    const clientIp = randomIp();
    for (let request = 1; request <= 10; request++) {
      await forgot(`someone-${request}-${randomUUID()}@example.test`, clientIp).expect(200);
    }
    const refused = await forgot(`someone-${randomUUID()}@example.test`, clientIp).expect(429);
    expect(refused.body.message).toBe('Too many requests. Please try again later.');
  });

  it('counts an unverified account as verified once the mailed link was used', async () => {
    const user = await createUser(testApp.dataSource, { verified: false });
    await forgot(user.email).expect(200);
    await reset(await tokenOf(user.email), 'brand-new-password-5').expect(200);
    await login(user.email, 'brand-new-password-5').expect(200);
  });

  it('trusts the browser that used the link: a locked account still lets it log in', async () => {
    const user = await createUser(testApp.dataSource);
    await forgot(user.email).expect(200);
    const browser = testApp.agent();
    await browser
      .post('/api/users/reset-password')
      .set('Origin', TEST_ORIGIN)
      .send({ token: await tokenOf(user.email), new_password: 'brand-new-password-6' })
      .expect(200);
    const limiter = testApp.app.get(RateLimiterService);
    for (let hit = 0; hit < LOGIN_FAILURES_PER_EMAIL.limit; hit++) {
      await limiter.hit(`login-failures:email:${user.email.toLowerCase()}`, LOGIN_FAILURES_PER_EMAIL);
    }
    await login(user.email, 'brand-new-password-6').expect(429);
    await browser
      .post('/api/users/login')
      .set('Origin', TEST_ORIGIN)
      .set('X-Forwarded-For', randomIp())
      .send({ email: user.email, password: 'brand-new-password-6' })
      .expect(200);
  });

  it('validates the address', async () => {
    const response = await forgot('not-an-address').expect(400);
    expect(response.body.message).toBe('Please enter a valid email address');
  });
});
