import { randomUUID } from 'node:crypto';
import { RateLimiterService } from '../../src/common/rate-limit/rate-limiter.service';
import { LOGIN_FAILURES_PER_EMAIL } from '../../src/users/auth/credentials.service';
import { createLoggedInUser, createUser, loginAs } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { sessionCookie, sessionSetCookie } from './support/cookies';

const INVALID = 'Invalid email or password';

describe('login, sessions and logout', () => {
  let testApp: TestApp;

  // Behind a trusted proxy, so each test can fail logins from its own client address.
  beforeAll(async () => {
    testApp = await createTestApp({ TRUST_PROXY: 'true' });
  });
  afterAll(() => testApp.close());

  const login = (
    body: Record<string, unknown>,
    clientIp = `10.1.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
  ) =>
    testApp.http
      .post('/api/users/login')
      .set('Origin', TEST_ORIGIN)
      .set('X-Forwarded-For', clientIp)
      .send(body);

  it('logs a verified user in and answers 200 with the user', async () => {
    const user = await createUser(testApp.dataSource, { proUser: true });
    const response = await login({ email: user.email, password: user.password }).expect(200);
    expect(response.body).toEqual({
      id: user.id,
      email: user.email,
      name: user.name,
      api_key: null,
      pro_user: 1,
      blog_editor: 0,
    });
    expect(sessionSetCookie(response.headers)).toBeDefined();
  });

  it('accepts the e-mail in any letter case', async () => {
    const user = await createUser(testApp.dataSource);
    await login({ email: user.email.toUpperCase(), password: user.password }).expect(200);
  });

  it('gives unknown e-mail and wrong password the same 401 answer', async () => {
    const user = await createUser(testApp.dataSource);
    const unknown = await login({
      email: `nobody-${randomUUID()}@example.test`,
      password: user.password,
    }).expect(401);
    const wrong = await login({ email: user.email, password: 'wrong-password' }).expect(401);
    expect(unknown.body).toEqual({ error: INVALID, message: INVALID, statusCode: 401 });
    expect(wrong.body).toEqual(unknown.body);
    expect(sessionSetCookie(wrong.headers)).toBeUndefined();
  });

  it('refuses a password longer than registration allows with the same 401, without a session', async () => {
    const user = await createUser(testApp.dataSource);
    const response = await login({ email: user.email, password: user.password + 'x'.repeat(1_000_000) });
    expect(response.status).toBe(401);
    expect(response.body.error).toBe(INVALID);
    expect(sessionSetCookie(response.headers)).toBeUndefined();
  });

  it('answers 400 when e-mail or password is missing', async () => {
    const response = await login({ email: 'someone@example.test' }).expect(400);
    expect(response.body.message).toBe('Email and password are required');
    await login({ password: 'whatever-password' }).expect(400);
  });

  it('refuses an unverified account with 403 asking to verify the e-mail', async () => {
    const user = await createUser(testApp.dataSource, { verified: false });
    const response = await login({ email: user.email, password: user.password }).expect(403);
    expect(response.body.message).toMatch(/verify your email/i);
    expect(sessionSetCookie(response.headers)).toBeUndefined();
  });

  it('tells an unverified account only to someone who knows its password', async () => {
    const user = await createUser(testApp.dataSource, { verified: false });
    const response = await login({ email: user.email, password: 'wrong-password' }).expect(401);
    expect(response.body.message).toBe(INVALID);
  });

  it('refuses a client with 429 after 5 failed attempts on an e-mail, even with the right password', async () => {
    const user = await createUser(testApp.dataSource);
    for (let attempt = 1; attempt <= 5; attempt++) {
      await login({ email: user.email, password: `wrong-${attempt}` }, '10.2.0.1').expect(401);
    }
    const locked = await login({ email: user.email, password: user.password }, '10.2.0.1').expect(429);
    expect(locked.body.message).toBe('Too many failed login attempts. Please try again in a few minutes.');
    // The client is told when its 15-minute window ends.
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(800);
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(900);
    // The owner, elsewhere, is not locked out by someone else's wrong guesses.
    await login({ email: user.email, password: user.password }, '10.2.0.2').expect(200);
  });

  it('refuses every new browser once an e-mail has had 100 failures from anywhere in the window, naming the mailed unlock link', async () => {
    const user = await createUser(testApp.dataSource);
    const limiter = testApp.app.get(RateLimiterService);
    // The allowance is spent directly: a hundred real argon2 checks would only make this slow.
    for (let hit = 0; hit < LOGIN_FAILURES_PER_EMAIL.limit; hit++)
      await limiter.hit(`login-failures:email:${user.email.toLowerCase()}`, LOGIN_FAILURES_PER_EMAIL);
    const locked = await login({ email: user.email, password: user.password }, '10.2.1.1').expect(429);
    expect(locked.body.message).toBe(
      'Too many failed login attempts on this account, so new browsers are stopped for a while. We have e-mailed the account an unlock link: open it in the browser you want to sign in from.',
    );
  });

  it('forgets earlier failures after a successful login', async () => {
    const user = await createUser(testApp.dataSource);
    for (let attempt = 1; attempt <= 4; attempt++) {
      await login({ email: user.email, password: `wrong-${attempt}` }).expect(401);
    }
    await login({ email: user.email, password: user.password }).expect(200);
    for (let attempt = 1; attempt <= 4; attempt++) {
      await login({ email: user.email, password: `wrong-${attempt}` }).expect(401);
    }
    await login({ email: user.email, password: user.password }).expect(200);
  });

  it('limits failed attempts from one client address across many e-mails', async () => {
    const clientIp = '10.3.0.1';
    for (let attempt = 1; attempt <= 50; attempt++) {
      await login(
        { email: `guess-${attempt}-${randomUUID()}@example.test`, password: 'guess-password' },
        clientIp,
      ).expect(401);
    }
    const user = await createUser(testApp.dataSource);
    await login({ email: user.email, password: user.password }, clientIp).expect(429);
    await login({ email: user.email, password: user.password }, '10.3.0.2').expect(200);
    // 50 full password checks: slow on a busy machine.
  }, 120_000);

  it('issues a new session id at login so the earlier cookie is no longer logged in', async () => {
    const user = await createUser(testApp.dataSource);
    const first = await login({ email: user.email, password: user.password }).expect(200);
    const firstCookie = sessionCookie(first.headers);
    const second = await testApp.http
      .post('/api/users/login')
      .set('Origin', TEST_ORIGIN)
      .set('Cookie', firstCookie)
      .send({ email: user.email, password: user.password })
      .expect(200);
    const secondCookie = sessionCookie(second.headers);
    expect(secondCookie).not.toBe(firstCookie);
    await testApp.http.get('/api/users/me').set('Cookie', firstCookie).expect(401);
    await testApp.http.get('/api/users/me').set('Cookie', secondCookie).expect(200);
  });

  it('sets an httpOnly, SameSite=Lax session cookie for 7 days (not Secure over plain http)', async () => {
    const user = await createUser(testApp.dataSource);
    const response = await login({ email: user.email, password: user.password }).expect(200);
    const line = sessionSetCookie(response.headers)!;
    expect(line).toMatch(/; HttpOnly/i);
    expect(line).toMatch(/; SameSite=Lax/i);
    expect(line).not.toMatch(/; Secure/i);
    const expires = new Date(/Expires=([^;]+)/i.exec(line)![1]).getTime();
    expect(Math.abs(expires - Date.now() - 7 * 24 * 3600 * 1000)).toBeLessThan(60_000);
  });

  it('rolls the session: every answer to a logged-in request renews the cookie', async () => {
    const { agent } = await createLoggedInUser(testApp);
    const response = await agent.get('/api/users/me').expect(200);
    expect(sessionSetCookie(response.headers)).toMatch(/Expires=/);
  });

  it('stores the session in Postgres keyed to the user id', async () => {
    const user = await createUser(testApp.dataSource);
    const response = await login({ email: user.email, password: user.password }).expect(200);
    const rows = await testApp.dataSource.query(
      `SELECT sid FROM session WHERE (sess -> 'passport' ->> 'user') = $1`,
      [user.id],
    );
    expect(rows).toHaveLength(1);
    expect(sessionCookie(response.headers)).toContain(encodeURIComponent(`s:${rows[0].sid}.`).slice(0, 20));
  });

  describe('GET users/me', () => {
    it('answers 401 when logged out', async () => {
      const response = await testApp.http.get('/api/users/me').expect(401);
      expect(response.body.message).toBe('Please log in to continue');
    });

    it('answers the logged-in user with pro_user and blog_editor as 0/1', async () => {
      const { user, agent } = await createLoggedInUser(testApp, { blogEditor: true });
      const response = await agent.get('/api/users/me').expect(200);
      expect(response.body).toEqual({
        id: user.id,
        email: user.email,
        name: user.name,
        api_key: null,
        pro_user: 0,
        blog_editor: 1,
      });
    });

    it('treats a session whose user was deleted as logged out', async () => {
      const { user, agent } = await createLoggedInUser(testApp);
      await testApp.dataSource.query('DELETE FROM users WHERE id = $1', [user.id]);
      await agent.get('/api/users/me').expect(401);
    });
  });

  describe('logout', () => {
    it('destroys the session, clears the cookie, and the old cookie no longer works', async () => {
      const user = await createUser(testApp.dataSource);
      const cookie = sessionCookie(
        (await login({ email: user.email, password: user.password }).expect(200)).headers,
      );
      const response = await testApp.http
        .post('/api/users/logout')
        .set('Origin', TEST_ORIGIN)
        .set('Cookie', cookie)
        .expect(200);
      expect(sessionSetCookie(response.headers)).toMatch(/Expires=Thu, 01 Jan 1970/);
      await testApp.http.get('/api/users/me').set('Cookie', cookie).expect(401);
      const rows = await testApp.dataSource.query(
        `SELECT 1 FROM session WHERE (sess -> 'passport' ->> 'user') = $1`,
        [user.id],
      );
      expect(rows).toHaveLength(0);
    });

    it('answers 200 when already logged out', async () => {
      await testApp.http.post('/api/users/logout').set('Origin', TEST_ORIGIN).expect(200);
    });
  });

  describe('cross-origin requests', () => {
    it('refuses a cross-origin login with 403 and starts no session', async () => {
      const user = await createUser(testApp.dataSource);
      const response = await testApp.http
        .post('/api/users/login')
        .set('Origin', 'https://evil.example')
        .send({ email: user.email, password: user.password })
        .expect(403);
      expect(response.body.message).toBe('Cross-origin request refused');
      expect(sessionSetCookie(response.headers)).toBeUndefined();
    });

    it('refuses a cross-origin logout with 403 and keeps the session', async () => {
      const { agent } = await createLoggedInUser(testApp);
      await agent.post('/api/users/logout').set('Origin', 'https://evil.example').expect(403);
      await agent.get('/api/users/me').expect(200);
    });

    it('refuses a cross-origin state change identified only by Referer', async () => {
      const { agent, user } = await createLoggedInUser(testApp);
      await agent
        .post('/api/dev/apikey')
        .set('Referer', 'https://evil.example/page')
        .send({ email: user.email })
        .expect(403);
    });
  });
});

describe('sessions across app restarts and processes', () => {
  it('keeps a user logged in when the app restarts', async () => {
    const first = await createTestApp();
    const user = await createUser(first.dataSource);
    const agent = await loginAs(first, user);
    const response = await agent.get('/api/users/me').expect(200);
    const cookie = sessionCookie(response.headers);
    await first.close();

    const second = await createTestApp();
    try {
      const me = await second.http.get('/api/users/me').set('Cookie', cookie).expect(200);
      expect(me.body.email).toBe(user.email);
    } finally {
      await second.close();
    }
  });

  it('shares one session between two app processes', async () => {
    const [one, two] = await Promise.all([createTestApp(), createTestApp()]);
    try {
      const user = await createUser(one.dataSource);
      const agent = await loginAs(one, user);
      const cookie = sessionCookie((await agent.get('/api/users/me').expect(200)).headers);
      await two.http.get('/api/users/me').set('Cookie', cookie).expect(200);
      await two.http.post('/api/users/logout').set('Origin', TEST_ORIGIN).set('Cookie', cookie).expect(200);
      await one.http.get('/api/users/me').set('Cookie', cookie).expect(401);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('keeps logging in on an app when another app in the same process was closed', async () => {
    const survivor = await createTestApp();
    const closed = await createTestApp();
    await closed.close();
    try {
      const user = await createUser(survivor.dataSource);
      const agent = await loginAs(survivor, user);
      await agent.get('/api/users/me').expect(200);
    } finally {
      await survivor.close();
    }
  });

  it('marks the cookie Secure when the app is served over https', async () => {
    const origin = 'https://market.example';
    const secureApp = await createTestApp({ APP_ORIGIN: origin, TRUST_PROXY: 'true' });
    try {
      const user = await createUser(secureApp.dataSource);
      const response = await secureApp.http
        .post('/api/users/login')
        .set('Origin', origin)
        .set('X-Forwarded-Proto', 'https')
        .send({ email: user.email, password: user.password })
        .expect(200);
      expect(sessionSetCookie(response.headers)).toMatch(/; Secure/i);
    } finally {
      await secureApp.close();
    }
  });
});
