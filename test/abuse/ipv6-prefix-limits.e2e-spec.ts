import { RESET_REQUESTS_PER_IP } from '../../src/users/password-reset/password-reset.service';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

/**
 * Per-address limits key an IPv6 client on its /64: one subscriber holds the whole prefix, so a
 * client rotating through its addresses must not get a fresh allowance with each.
 */
describe('per-address limits and IPv6 prefixes', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp({ TRUST_PROXY: 'true' });
  });
  afterAll(() => testApp.close());

  const forgot = (clientIp: string, n: number) =>
    testApp.http
      .post('/api/users/forgot-password')
      .set('Origin', TEST_ORIGIN)
      .set('X-Forwarded-For', clientIp)
      .send({ email: `nobody-${n}-${Date.now()}@example.test` });

  /** A random /64 of the documentation range, as four hextets. */
  const randomPrefix = () =>
    `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:${Math.floor(Math.random() * 0xffff).toString(16)}`;

  it('counts every address of one /64 together', async () => {
    const prefix = randomPrefix();
    for (let n = 1; n <= RESET_REQUESTS_PER_IP.limit; n++)
      await forgot(`${prefix}:${n.toString(16)}::${(n * 7).toString(16)}`, n).expect(200);
    const refused = await forgot(`${prefix}:abcd:ef01:2345:6789`, 99).expect(429);
    expect(refused.body.message).toBe('Too many requests. Please try again later.');
  });

  it('keeps neighbouring /64s apart', async () => {
    const prefix = randomPrefix();
    for (let n = 1; n <= RESET_REQUESTS_PER_IP.limit; n++) await forgot(`${prefix}::${n}`, n).expect(200);
    const neighbour = prefix.replace(
      /:([0-9a-f]+)$/,
      (_, last: string) => `:${((parseInt(last, 16) + 1) % 0xffff).toString(16)}`,
    );
    await forgot(`${neighbour}::1`, 100).expect(200);
  });
});
