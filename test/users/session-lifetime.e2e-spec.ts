import { createLoggedInUser, loginAs, TestUser } from '../factories/user.factory';
import { createTestApp, TestApp } from '../support/test-app';
import { sessionSetCookie } from './support/cookies';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('absolute session lifetime', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp({ SESSION_LIFETIME_DAYS: '10' });
  });
  afterAll(() => testApp.close());

  /** Moves the user's login back in time, as if it had happened `daysAgo` days ago. */
  async function loggedInDaysAgo(user: TestUser, daysAgo: number): Promise<void> {
    const updated = await testApp.dataSource.query(
      `UPDATE session SET sess = jsonb_set(sess::jsonb, '{loggedInAt}', to_jsonb($2::bigint))::json
        WHERE (sess -> 'passport' ->> 'user') = $1`,
      [user.id, Date.now() - daysAgo * DAY_MS],
    );
    expect(updated[1]).toBe(1);
  }

  it('records the login time in the session', async () => {
    const before = Date.now();
    const { user } = await createLoggedInUser(testApp);
    const [row] = await testApp.dataSource.query(
      `SELECT (sess ->> 'loggedInAt')::bigint AS "loggedInAt" FROM session WHERE (sess -> 'passport' ->> 'user') = $1`,
      [user.id],
    );
    expect(Number(row.loggedInAt)).toBeGreaterThanOrEqual(before);
  });

  it('ends a session used every day once its lifetime since login has passed', async () => {
    const { user, agent } = await createLoggedInUser(testApp);
    await loggedInDaysAgo(user, 9);
    await agent.get('/api/users/me').expect(200);
    await loggedInDaysAgo(user, 10.01);
    const refused = await agent.get('/api/users/me').expect(401);
    expect(refused.body.error).toBe('Please log in to continue');
    // The old session is gone for good, not merely refused once.
    await agent.get('/api/users/me').expect(401);
  });

  it('never lets the cookie of a session near its end outlive that end', async () => {
    const { user, agent } = await createLoggedInUser(testApp);
    await loggedInDaysAgo(user, 8);
    const response = await agent.get('/api/users/me').expect(200);
    const expires = new Date(/Expires=([^;]+)/i.exec(sessionSetCookie(response.headers)!)![1]).getTime();
    expect(Math.abs(expires - (Date.now() + 2 * DAY_MS))).toBeLessThan(60_000);
  });

  it('lets a new login start a new lifetime', async () => {
    const { user } = await createLoggedInUser(testApp);
    await loggedInDaysAgo(user, 11);
    const agent = await loginAs(testApp, user);
    await agent.get('/api/users/me').expect(200);
  });
});
