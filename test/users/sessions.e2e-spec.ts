import { createLoggedInUser, createUser, TestUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

const CHROME_ON_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.7339.80 Safari/537.36';
const FIREFOX_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:141.0) Gecko/20100101 Firefox/141.0';

interface ListedSession {
  id: string;
  browser: string;
  ip: string;
  last_seen_at: string | null;
  current: boolean;
}

describe('sessions (users/sessions)', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp({ TRUST_PROXY: 'true' });
  });
  afterAll(() => testApp.close());

  /** A browser logged in as the user with its own user agent and address. */
  const browserOf = async (user: TestUser, userAgent: string, clientIp: string) => {
    const browser = testApp.agent();
    await browser
      .post('/api/users/login')
      .set('Origin', TEST_ORIGIN)
      .set('User-Agent', userAgent)
      .set('X-Forwarded-For', clientIp)
      .send({ email: user.email, password: user.password })
      .expect(200);
    return browser;
  };
  const listOf = async (browser: ReturnType<TestApp['agent']>) =>
    (await browser.get('/api/users/sessions').expect(200)).body as ListedSession[];

  it('shows an IPv4 client of a dual-stack socket as IPv4, not ::ffff:…', async () => {
    const user = await createUser(testApp.dataSource);
    const browser = await browserOf(user, CHROME_ON_LINUX, '::ffff:10.80.9.9');
    expect((await listOf(browser))[0].ip).toBe('10.80.9.9');
  });

  it('lists the active sessions with browser, address and last seen, this one first and marked', async () => {
    const user = await createUser(testApp.dataSource);
    const laptop = await browserOf(user, CHROME_ON_LINUX, '10.80.0.1');
    await browserOf(user, FIREFOX_ON_WINDOWS, '10.80.0.2');
    const sessions = await listOf(laptop);
    expect(sessions).toHaveLength(2);
    expect(sessions[0]).toMatchObject({ browser: 'Chrome 140 on Linux', ip: '10.80.0.1', current: true });
    expect(sessions[1]).toMatchObject({ browser: 'Firefox 141 on Windows', ip: '10.80.0.2', current: false });
    for (const session of sessions) {
      expect(Math.abs(Date.parse(session.last_seen_at!) - Date.now())).toBeLessThan(60_000);
    }
  });

  it('never shows the session ids the cookies carry', async () => {
    const user = await createUser(testApp.dataSource);
    const browser = await browserOf(user, CHROME_ON_LINUX, '10.80.1.1');
    const rows: Array<{ sid: string }> = await testApp.dataSource.query(
      `SELECT sid FROM session WHERE (sess -> 'passport' ->> 'user') = $1`,
      [user.id],
    );
    const answer = await browser.get('/api/users/sessions').expect(200);
    expect(JSON.stringify(answer.body)).not.toContain(rows[0].sid);
  });

  it('signs out one session: that browser is logged out, this one stays', async () => {
    const user = await createUser(testApp.dataSource);
    const laptop = await browserOf(user, CHROME_ON_LINUX, '10.80.2.1');
    const phone = await browserOf(user, FIREFOX_ON_WINDOWS, '10.80.2.2');
    const other = (await listOf(laptop)).find((session) => !session.current)!;
    const answer = await laptop
      .post(`/api/users/sessions/${other.id}/sign-out`)
      .set('Origin', TEST_ORIGIN)
      .expect(200);
    expect(answer.body.message).toBe('Session signed out');
    await phone.get('/api/users/me').expect(401);
    await laptop.get('/api/users/me').expect(200);
    expect(await listOf(laptop)).toHaveLength(1);
  });

  it('answers 404 for another user’s session and leaves it logged in', async () => {
    const { agent: victim } = await createLoggedInUser(testApp);
    const { agent: stranger } = await createLoggedInUser(testApp);
    const [victimSession] = await listOf(victim);
    const answer = await stranger
      .post(`/api/users/sessions/${victimSession.id}/sign-out`)
      .set('Origin', TEST_ORIGIN)
      .expect(404);
    expect(answer.body.message).toBe('Session not found');
    await victim.get('/api/users/me').expect(200);
  });

  it('signs out everywhere else and keeps this session', async () => {
    const user = await createUser(testApp.dataSource);
    const laptop = await browserOf(user, CHROME_ON_LINUX, '10.80.3.1');
    const phone = await browserOf(user, FIREFOX_ON_WINDOWS, '10.80.3.2');
    const tablet = await browserOf(user, FIREFOX_ON_WINDOWS, '10.80.3.3');
    const { agent: someoneElse } = await createLoggedInUser(testApp);
    const answer = await laptop
      .post('/api/users/sessions/sign-out-others')
      .set('Origin', TEST_ORIGIN)
      .expect(200);
    expect(answer.body.message).toBe('Signed out of 2 other sessions');
    await phone.get('/api/users/me').expect(401);
    await tablet.get('/api/users/me').expect(401);
    await laptop.get('/api/users/me').expect(200);
    await someoneElse.get('/api/users/me').expect(200);
    const again = await laptop
      .post('/api/users/sessions/sign-out-others')
      .set('Origin', TEST_ORIGIN)
      .expect(200);
    expect(again.body.message).toBe('Signed out of 0 other sessions');
  });

  it('moves last seen on use at most every 10 minutes, without writing the session on every request', async () => {
    const user = await createUser(testApp.dataSource);
    const browser = await browserOf(user, CHROME_ON_LINUX, '10.80.4.1');
    const details = async () =>
      (
        await testApp.dataSource.query(
          `SELECT sess -> 'details' AS details FROM session WHERE (sess -> 'passport' ->> 'user') = $1`,
          [user.id],
        )
      )[0].details as { lastSeenAt: number; ip: string };
    const atLogin = await details();
    await browser.get('/api/users/me').set('X-Forwarded-For', '10.80.4.2').expect(200);
    expect(await details()).toEqual(atLogin);

    const elevenMinutesAgo = Date.now() - 11 * 60_000;
    await testApp.dataSource.query(
      `UPDATE session SET sess = jsonb_set(sess::jsonb, '{details,lastSeenAt}', to_jsonb($2::bigint))::json
        WHERE (sess -> 'passport' ->> 'user') = $1`,
      [user.id, elevenMinutesAgo],
    );
    await browser.get('/api/users/me').set('X-Forwarded-For', '10.80.4.2').expect(200);
    const after = await details();
    expect(after.lastSeenAt).toBeGreaterThan(elevenMinutesAgo + 10 * 60_000);
    expect(after.ip).toBe('10.80.4.2');
  });
});
