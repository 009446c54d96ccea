import { RESET_REQUESTS_PER_IP } from '../../src/users/password-reset/password-reset.service';
import { createUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

/** An IPv6 client picks any address in its /64: per-address limits count the /64, not the address. */
describe('per-address limits on IPv6', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp({ TRUST_PROXY: 'true' });
  });
  afterAll(() => testApp.close());

  const forgot = (clientIp: string) =>
    testApp.http
      .post('/api/users/forgot-password')
      .set('Origin', TEST_ORIGIN)
      .set('X-Forwarded-For', clientIp)
      .send({ email: 'nobody@example.com' });
  const login = (email: string, clientIp: string) =>
    testApp.http
      .post('/api/users/login')
      .set('Origin', TEST_ORIGIN)
      .set('X-Forwarded-For', clientIp)
      .send({ email, password: 'wrong-password' });

  it('refuses reset requests from a new address in the same /64 once the limit is reached', async () => {
    for (let request = 1; request <= RESET_REQUESTS_PER_IP.limit; request++) {
      await forgot(`2001:db8:40:1:${request.toString(16)}::1`).expect(200);
    }
    await forgot('2001:db8:40:1:ffff:ffff:ffff:fffe').expect(429);
    // Another /64 has its own count.
    await forgot('2001:db8:40:2::1').expect(200);
  });

  it('counts wrong passwords for one account from one /64 together', async () => {
    const user = await createUser(testApp.dataSource);
    for (let attempt = 1; attempt <= 5; attempt++) {
      await login(user.email, `2001:db8:41:1::${attempt}`).expect(401);
    }
    await login(user.email, '2001:db8:41:1::99').expect(429);
  });
});
