import { randomUUID } from 'node:crypto';
import { RateLimiterService } from '../../src/common/rate-limit/rate-limiter.service';
import { LOGIN_FAILURES_PER_EMAIL, LOGIN_FAILURES_PER_IP } from '../../src/users/auth/credentials.service';
import { createUser, loginAs } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

/** How many answers of each status a burst got, e.g. { 401: 5, 429: 35 }. */
function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe('attempt limits under parallel requests', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp({ TRUST_PROXY: 'true' });
  });
  afterAll(() => testApp.close());

  const login = (body: Record<string, unknown>, clientIp: string) =>
    testApp.http
      .post('/api/users/login')
      .set('Origin', TEST_ORIGIN)
      .set('X-Forwarded-For', clientIp)
      .send(body);

  it('lets exactly 5 of 40 parallel wrong logins from one client reach the password check; the rest get 429', async () => {
    const user = await createUser(testApp.dataSource);
    const clientIp = '10.40.0.1';
    const burst = await Promise.all(
      Array.from({ length: 40 }, (_, attempt) =>
        login({ email: user.email, password: `wrong-${attempt}` }, clientIp),
      ),
    );
    expect(tally(burst.map((response) => response.status))).toEqual({ 401: 5, 429: 35 });
    // The right password from the same client is refused too: the burst cannot reach a correct guess.
    await login({ email: user.email, password: user.password }, clientIp).expect(429);
    // Only the 5 checked attempts count against the account and the address.
    const limiter = testApp.app.get(RateLimiterService);
    expect(
      await limiter.peek(`login-failures:email:${user.email.toLowerCase()}`, LOGIN_FAILURES_PER_EMAIL),
    ).toBe(5);
    expect(await limiter.peek(`login-failures:ip:${clientIp}`, LOGIN_FAILURES_PER_IP)).toBe(5);
  }, 60_000);

  it('does not count a successful login as a failure of the account or the address', async () => {
    const user = await createUser(testApp.dataSource);
    const clientIp = '10.40.0.2';
    await login({ email: user.email, password: user.password }, clientIp).expect(200);
    const limiter = testApp.app.get(RateLimiterService);
    expect(
      await limiter.peek(`login-failures:email:${user.email.toLowerCase()}`, LOGIN_FAILURES_PER_EMAIL),
    ).toBe(0);
    expect(await limiter.peek(`login-failures:ip:${clientIp}`, LOGIN_FAILURES_PER_IP)).toBe(0);
  });

  it('lets exactly 5 of 30 parallel wrong current passwords be checked on change-password', async () => {
    const user = await createUser(testApp.dataSource);
    const agent = await loginAs(testApp, user);
    const burst = await Promise.all(
      Array.from({ length: 30 }, () =>
        agent
          .post('/api/users/change-password')
          .set('Origin', TEST_ORIGIN)
          .send({ current_password: `wrong-${randomUUID()}`, new_password: 'brand-new-password' }),
      ),
    );
    expect(tally(burst.map((response) => response.status))).toEqual({ 400: 5, 429: 25 });
    await agent
      .post('/api/users/change-password')
      .set('Origin', TEST_ORIGIN)
      .send({ current_password: user.password, new_password: 'brand-new-password' })
      .expect(429);
  }, 60_000);
});
