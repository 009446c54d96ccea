import { randomUUID } from 'node:crypto';
import { RateLimiterService } from '../../src/common/rate-limit/rate-limiter.service';
import {
  LOGIN_FAILURES_PER_EMAIL,
  LOGIN_FAILURES_PER_EMAIL_AND_CLIENT,
  LOGIN_FAILURES_PER_IP,
} from '../../src/users/auth/credentials.service';
import { createUser, TestUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { setCookieLine } from './support/account-security';

const TOO_MANY = 'Too many failed login attempts. Please try again in a few minutes.';
const DEVICE_COOKIE = 'dm.device';
const ACCOUNT_LOCKED =
  'Too many failed login attempts on this account, so new browsers are stopped for a while. We have e-mailed the account an unlock link: open it in the browser you want to sign in from.';

/**
 * Lockouts strangers cannot aim: failures from many addresses, or from one shared address, do not
 * keep an owner out of the browser they have logged in from before, while guessing stays as slow.
 */
describe('login lockouts', () => {
  let testApp: TestApp;
  let limiter: RateLimiterService;

  beforeAll(async () => {
    testApp = await createTestApp({ TRUST_PROXY: 'true' });
    limiter = testApp.app.get(RateLimiterService);
  });
  afterAll(() => testApp.close());

  const login = (
    browser: ReturnType<TestApp['agent']> | TestApp['http'],
    user: Pick<TestUser, 'email' | 'password'>,
    clientIp: string,
  ) =>
    browser
      .post('/api/users/login')
      .set('Origin', TEST_ORIGIN)
      .set('X-Forwarded-For', clientIp)
      .send({ email: user.email, password: user.password });
  /** A browser that has logged in as the user once (and so holds the trusted-device cookie). */
  const trustedBrowserOf = async (user: TestUser) => {
    const browser = testApp.agent();
    await login(browser, user, `10.90.${Math.floor(Math.random() * 250)}.1`).expect(200);
    return browser;
  };
  const wrong = (user: TestUser) => ({ email: user.email, password: 'wrong-password' });

  it('sets the trusted-device cookie after a login: httpOnly, SameSite=Lax, only for the login calls', async () => {
    const user = await createUser(testApp.dataSource);
    const answer = await login(testApp.http, user, '10.90.0.1').expect(200);
    const line = setCookieLine(answer.headers, DEVICE_COOKIE)!;
    expect(line).toMatch(/; HttpOnly/i);
    expect(line).toMatch(/; SameSite=Lax/i);
    expect(line).toMatch(/; Path=\/api\/users\/login/i);
    expect(setCookieLine((await login(testApp.http, wrong(user), '10.90.0.1')).headers, DEVICE_COOKIE)).toBe(
      undefined,
    );
  });

  it('lets the owner in from their browser after five wrong passwords from each of 21 addresses', async () => {
    const owner = await createUser(testApp.dataSource);
    const ownersBrowser = await trustedBrowserOf(owner);
    // Twenty addresses' failures are counted directly (a hundred real password checks would only
    // make this slow); the 21st address guesses for real and finds the account locked.
    const account = owner.email.toLowerCase();
    for (let address = 1; address <= 20; address++) {
      for (let attempt = 1; attempt <= 5; attempt++) {
        await limiter.hit(
          `login-failures:email-client:${account}:10.91.${address}.1`,
          LOGIN_FAILURES_PER_EMAIL_AND_CLIENT,
        );
        await limiter.hit(`login-failures:email:${account}`, LOGIN_FAILURES_PER_EMAIL);
      }
    }
    for (let attempt = 1; attempt <= 5; attempt++) {
      await login(testApp.http, wrong(owner), '10.91.21.1').expect(429);
    }
    // The account as a whole is locked for strangers: guessing from a new address is refused.
    expect((await login(testApp.http, owner, '10.91.99.1').expect(429)).body.message).toBe(ACCOUNT_LOCKED);
    const answer = await login(ownersBrowser, owner, '10.91.100.1').expect(200);
    expect(answer.body.id).toBe(owner.id);
  });

  it('lets the owner in from their browser at an address where a stranger failed five times', async () => {
    const owner = await createUser(testApp.dataSource);
    const ownersBrowser = await trustedBrowserOf(owner);
    for (let attempt = 1; attempt <= 5; attempt++) {
      await login(testApp.http, wrong(owner), '10.92.0.1').expect(401);
    }
    await login(testApp.http, owner, '10.92.0.1').expect(429);
    await login(ownersBrowser, owner, '10.92.0.1').expect(200);
  });

  it('lets colleagues behind one address log in from their browsers after 50 failures from it', async () => {
    const office = '10.93.0.1';
    const colleague = await createUser(testApp.dataSource);
    const colleaguesBrowser = await trustedBrowserOf(colleague);
    // The address's allowance is spent directly: fifty real password checks would only make this slow.
    for (let hit = 0; hit < LOGIN_FAILURES_PER_IP.limit; hit++) {
      await limiter.hit(`login-failures:ip:${office}`, LOGIN_FAILURES_PER_IP);
    }
    await login(colleaguesBrowser, colleague, office).expect(200);
    // Guessing from there stays refused, on any account, without the account's browser.
    const stranger = await createUser(testApp.dataSource);
    expect((await login(testApp.http, stranger, office).expect(429)).body.message).toBe(TOO_MANY);
    await login(testApp.http, { email: `guess-${randomUUID()}@example.test`, password: 'x' }, office).expect(
      429,
    );
  });

  it('does not let a browser trusted by one account past another account’s lock', async () => {
    const mine = await createUser(testApp.dataSource);
    const theirs = await createUser(testApp.dataSource);
    const myBrowser = await trustedBrowserOf(mine);
    for (let hit = 0; hit < LOGIN_FAILURES_PER_EMAIL.limit; hit++) {
      await limiter.hit(`login-failures:email:${theirs.email.toLowerCase()}`, LOGIN_FAILURES_PER_EMAIL);
    }
    await login(myBrowser, theirs, '10.94.0.1').expect(429);
  });

  it('ignores a trusted-device cookie that was altered', async () => {
    const mine = await createUser(testApp.dataSource);
    const theirs = await createUser(testApp.dataSource);
    const answer = await login(testApp.http, mine, '10.95.0.1').expect(200);
    const [payload, signature] = setCookieLine(answer.headers, DEVICE_COOKIE)!
      .split(';')[0]
      .split('=')[1]
      .split('.');
    const device = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const forged = Buffer.from(JSON.stringify({ ...device, userIds: [theirs.id] })).toString('base64url');
    for (let hit = 0; hit < LOGIN_FAILURES_PER_EMAIL.limit; hit++) {
      await limiter.hit(`login-failures:email:${theirs.email.toLowerCase()}`, LOGIN_FAILURES_PER_EMAIL);
    }
    await login(testApp.http, theirs, '10.95.0.2')
      .set('Cookie', `${DEVICE_COOKIE}=${forged}.${signature}`)
      .expect(429);
  });

  it('gives a trusted browser its own five failures, then refuses even the right password', async () => {
    const owner = await createUser(testApp.dataSource);
    const ownersBrowser = await trustedBrowserOf(owner);
    for (let attempt = 1; attempt <= 5; attempt++) {
      await login(ownersBrowser, wrong(owner), `10.96.0.${attempt}`).expect(401);
    }
    expect((await login(ownersBrowser, owner, '10.96.0.9').expect(429)).body.message).toBe(TOO_MANY);
  });
});
