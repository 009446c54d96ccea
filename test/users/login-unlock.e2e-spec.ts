import { randomUUID } from 'node:crypto';
import { sha256Hex } from '../../src/common/crypto/secret-box';
import { RateLimiterService } from '../../src/common/rate-limit/rate-limiter.service';
import { LOGIN_FAILURES_PER_EMAIL } from '../../src/users/auth/credentials.service';
import { TWO_FACTOR_FAILURES_PER_USER } from '../../src/users/two-factor/two-factor.service';
import { outboxFor } from '../factories/mail.factory';
import { createLoggedInUser, createUser, TestUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { enableTwoFactor, totpAt, waitForMail } from './support/account-security';

const ACCOUNT_LOCKED =
  'Too many failed login attempts on this account, so new browsers are stopped for a while. We have e-mailed the account an unlock link: open it in the browser you want to sign in from.';
const CODE_STEP_LOCKED =
  'Too many wrong codes for this account, so new browsers are stopped for a while. We have e-mailed you an unlock link: open it in this browser, then log in again.';
const UNLOCKED = 'This browser can sign in again. Please log in.';
const DEAD_LINK =
  'This unlock link has already been used or has expired. Try to log in again to get a new one by e-mail.';
const UNLOCK_MAIL = 'Sign-in to your account was locked';

type Browser = ReturnType<TestApp['agent']> | TestApp['http'];

/**
 * Limits per account and browser: strangers, even ones who know the password, cannot keep the owner
 * out of a browser that signed in before, and the owner of a locked account gets a way back by mail.
 */
describe('per-browser login limits and the unlock link', () => {
  let testApp: TestApp;
  let limiter: RateLimiterService;

  beforeAll(async () => {
    testApp = await createTestApp({ TRUST_PROXY: 'true' });
    limiter = testApp.app.get(RateLimiterService);
  });
  afterAll(() => testApp.close());

  const login = (browser: Browser, user: Pick<TestUser, 'email' | 'password'>, clientIp: string) =>
    browser
      .post('/api/users/login')
      .set('Origin', TEST_ORIGIN)
      .set('X-Forwarded-For', clientIp)
      .send({ email: user.email, password: user.password });
  const codeStep = (browser: Browser, clientIp: string, body: Record<string, string>) =>
    browser
      .post('/api/users/login/two-factor')
      .set('Origin', TEST_ORIGIN)
      .set('X-Forwarded-For', clientIp)
      .send(body);
  const unlock = (browser: Browser, token: string) =>
    browser.post('/api/users/login/unlock').set('Origin', TEST_ORIGIN).send({ token });
  /** The account-wide allowance spent directly: a hundred real password checks would only make this slow. */
  const lockAccount = async (email: string) => {
    for (let hit = 0; hit < LOGIN_FAILURES_PER_EMAIL.limit; hit++) {
      await limiter.hit(`login-failures:email:${email.toLowerCase()}`, LOGIN_FAILURES_PER_EMAIL);
    }
  };
  const unlockTokenIn = (links: string[]) => {
    const link = links.find((candidate) => candidate.includes('/unlock-login?token='));
    if (!link) throw new Error('No unlock link in the mail');
    return new URL(link).searchParams.get('token')!;
  };

  it('keeps the owner’s trusted browser at the code step when someone with the password sends wrong codes', async () => {
    const { user, agent: ownersBrowser } = await createLoggedInUser(testApp);
    const { secret, timeStep } = await enableTwoFactor(ownersBrowser);
    for (const address of ['10.60.1.1', '10.60.2.1']) {
      const attackersBrowser = testApp.agent();
      await login(attackersBrowser, user, address).expect(200);
      for (let attempt = 1; attempt <= 5; attempt++) {
        await codeStep(attackersBrowser, address, { code: '000000' }).expect(401);
      }
    }
    // Ten wrong codes: every browser new to the account is stopped at the code step, told of the mail.
    const anotherBrowser = testApp.agent();
    await login(anotherBrowser, user, '10.60.3.1').expect(200);
    const rightCode = await totpAt(secret, timeStep + 1);
    const refused = await codeStep(anotherBrowser, '10.60.3.1', { code: rightCode }).expect(429);
    expect(refused.body.message).toBe(CODE_STEP_LOCKED);
    await waitForMail(testApp, user.email, UNLOCK_MAIL);

    const passwordStep = await login(ownersBrowser, user, '10.60.9.1').expect(200);
    expect(passwordStep.body.two_factor_required).toBe(true);
    const signedIn = await codeStep(ownersBrowser, '10.60.9.1', { code: rightCode }).expect(200);
    expect(signedIn.body.id).toBe(user.id);
  });

  it('refuses a new browser after 100 wrong passwords from 20 addresses, saying an unlock link was mailed, and lets the owner’s browser in', async () => {
    const owner = await createUser(testApp.dataSource);
    const ownersBrowser = testApp.agent();
    await login(ownersBrowser, owner, '10.61.0.1').expect(200);
    const wrong = { email: owner.email, password: 'wrong-password' };
    for (let address = 1; address <= 20; address++) {
      const attempts = Array.from({ length: 5 }, () => login(testApp.http, wrong, `10.61.${address}.1`));
      for (const answer of await Promise.all(attempts)) expect(answer.status).toBe(401);
    }
    const refused = await login(testApp.agent(), owner, '10.61.99.1').expect(429);
    expect(refused.body.message).toBe(ACCOUNT_LOCKED);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const signedIn = await login(ownersBrowser, owner, '10.61.100.1').expect(200);
    expect(signedIn.body.id).toBe(owner.id);
  }, 180_000);

  it('answers a locked address without an account in the same words, and mails nobody', async () => {
    const nobody = { email: `nobody-${randomUUID()}@example.test`, password: 'whatever-password' };
    await lockAccount(nobody.email);
    expect((await login(testApp.agent(), nobody, '10.63.0.1').expect(429)).body.message).toBe(ACCOUNT_LOCKED);
    expect(await outboxFor(testApp, nobody.email)).toEqual([]);
  });

  it('mails one unlock link per lock; it lets the browser that opens it sign in, once, and is stored hashed', async () => {
    const owner = await createUser(testApp.dataSource);
    await lockAccount(owner.email);
    const ownersNewBrowser = testApp.agent();
    expect((await login(ownersNewBrowser, owner, '10.62.0.1').expect(429)).body.message).toBe(ACCOUNT_LOCKED);
    expect((await login(testApp.agent(), owner, '10.62.0.2').expect(429)).body.message).toBe(ACCOUNT_LOCKED);

    const mail = await waitForMail(testApp, owner.email, UNLOCK_MAIL);
    expect(mail.text).toContain('works once, within 1 hour');
    const mails = (await outboxFor(testApp, owner.email)).filter(
      (message) => message.subject === UNLOCK_MAIL,
    );
    expect(mails).toHaveLength(1);
    const token = unlockTokenIn(mail.links);
    const stored: Array<{ token_hash: string }> = await testApp.dataSource.query(
      `SELECT token_hash FROM login_unlock_tokens WHERE user_id = $1`,
      [owner.id],
    );
    expect(stored).toEqual([{ token_hash: sha256Hex(token) }]);

    expect((await unlock(ownersNewBrowser, token).expect(200)).body.message).toBe(UNLOCKED);
    expect((await login(ownersNewBrowser, owner, '10.62.0.1').expect(200)).body.id).toBe(owner.id);
    // Used: refused in plain words, and the account stays locked for every other new browser.
    const stranger = testApp.agent();
    expect((await unlock(stranger, token).expect(400)).body.message).toBe(DEAD_LINK);
    expect((await login(stranger, owner, '10.62.0.3').expect(429)).body.message).toBe(ACCOUNT_LOCKED);
  });

  it('refuses an expired unlock link in the same plain words', async () => {
    const owner = await createUser(testApp.dataSource);
    await lockAccount(owner.email);
    const browser = testApp.agent();
    await login(browser, owner, '10.64.0.1').expect(429);
    const token = unlockTokenIn((await waitForMail(testApp, owner.email, UNLOCK_MAIL)).links);
    await testApp.dataSource.query(
      `UPDATE login_unlock_tokens SET expires_at = now() - interval '1 minute' WHERE user_id = $1`,
      [owner.id],
    );
    expect((await unlock(browser, token).expect(400)).body.message).toBe(DEAD_LINK);
    await login(browser, owner, '10.64.0.1').expect(429);
  });

  it('lets a browser unlocked by the link past the code step’s lock too', async () => {
    const { user, agent } = await createLoggedInUser(testApp);
    const { secret, timeStep } = await enableTwoFactor(agent);
    const codeKey = `two-factor-failures:code:user:${user.id}`;
    for (let hit = 0; hit < TWO_FACTOR_FAILURES_PER_USER.limit; hit++) {
      await limiter.hit(codeKey, TWO_FACTOR_FAILURES_PER_USER);
    }
    const newBrowser = testApp.agent();
    await login(newBrowser, user, '10.65.0.1').expect(200);
    const rightCode = await totpAt(secret, timeStep + 1);
    expect((await codeStep(newBrowser, '10.65.0.1', { code: rightCode }).expect(429)).body.message).toBe(
      CODE_STEP_LOCKED,
    );
    const token = unlockTokenIn((await waitForMail(testApp, user.email, UNLOCK_MAIL)).links);
    await unlock(newBrowser, token).expect(200);
    await login(newBrowser, user, '10.65.0.1').expect(200);
    expect((await codeStep(newBrowser, '10.65.0.1', { code: rightCode }).expect(200)).body.id).toBe(user.id);
  });
});
