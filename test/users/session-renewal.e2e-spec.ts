import { SESSION_TOUCH_INTERVAL_MS } from '../../src/common/session/throttled-touch';
import { createLoggedInUser, TestUser } from '../factories/user.factory';
import { createTestApp, TestApp } from '../support/test-app';

describe('session renewal in the store', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => {
    jest.restoreAllMocks();
    return testApp.close();
  });

  /** Sets the stored expiry to a marker a day ahead, so a renewal shows as a change. */
  const markExpiry = (user: TestUser) =>
    testApp.dataSource.query(
      `UPDATE session SET expire = date_trunc('second', now()) + interval '1 day'
        WHERE (sess -> 'passport' ->> 'user') = $1 RETURNING expire`,
      [user.id],
    );
  const storedExpiry = async (user: TestUser): Promise<number> => {
    const [row] = await testApp.dataSource.query(
      `SELECT expire FROM session WHERE (sess -> 'passport' ->> 'user') = $1`,
      [user.id],
    );
    return new Date(row.expire).getTime();
  };

  it('writes a rolling session’s new expiry at most once per interval, and again after it', async () => {
    const { user, agent } = await createLoggedInUser(testApp);
    await agent.get('/api/users/me').expect(200);
    const [{ expire }] = (await markExpiry(user))[0];
    const marked = new Date(expire).getTime();

    // Within the interval: answered (and the cookie rolls), but the store is not written.
    await agent.get('/api/users/me').expect(200);
    await agent.get('/api/users/me').expect(200);
    expect(await storedExpiry(user)).toBe(marked);

    // Once the interval has passed, the next request renews it: 7 days from then.
    const later = Date.now() + SESSION_TOUCH_INTERVAL_MS + 1_000;
    jest.spyOn(Date, 'now').mockReturnValue(later);
    await agent.get('/api/users/me').expect(200);
    jest.restoreAllMocks();
    const renewed = await storedExpiry(user);
    expect(renewed).toBeGreaterThan(marked + 5 * 24 * 60 * 60 * 1000);
  });
});
