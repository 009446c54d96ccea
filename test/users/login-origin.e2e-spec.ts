import { Logger } from '@nestjs/common';
import { createUser } from '../factories/user.factory';
import { createTestApp, TestApp } from '../support/test-app';
import { sessionSetCookie } from './support/cookies';

const CROSS_ORIGIN = 'Cross-origin request refused';

async function loginFrom(testApp: TestApp, origin: string) {
  const user = await createUser(testApp.dataSource);
  return testApp.http
    .post('/api/users/login')
    .set('Origin', origin)
    .send({ email: user.email, password: user.password });
}

describe('login from the loopback names of the configured origin', () => {
  describe('in development', () => {
    let testApp: TestApp;
    beforeAll(async () => {
      testApp = await createTestApp({ NODE_ENV: 'development', APP_ORIGIN: 'http://localhost:3000' });
    });
    afterAll(() => testApp.close());

    it.each(['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000'])(
      'logs in from %s and starts a session',
      async (origin) => {
        const response = await loginFrom(testApp, origin);
        expect(response.status).toBe(200);
        expect(sessionSetCookie(response.headers)).toBeDefined();
      },
    );

    it.each([
      'http://127.0.0.1:3001',
      'https://127.0.0.1:3000',
      'http://127.0.0.2:3000',
      'http://evil.example',
    ])('still refuses %s (another port, scheme or host)', async (origin) => {
      const response = await loginFrom(testApp, origin);
      expect(response.status).toBe(403);
      expect(response.body.message).toBe(CROSS_ORIGIN);
    });
  });

  describe('in production', () => {
    let testApp: TestApp;
    beforeAll(async () => {
      testApp = await createTestApp({ NODE_ENV: 'production', APP_ORIGIN: 'http://localhost:3000' });
    });
    afterAll(() => testApp.close());

    it('keeps the strict check: 127.0.0.1 is refused where APP_ORIGIN says localhost', async () => {
      const response = await loginFrom(testApp, 'http://127.0.0.1:3000');
      expect(response.status).toBe(403);
      expect(response.body.message).toBe(CROSS_ORIGIN);
      expect((await loginFrom(testApp, 'http://localhost:3000')).status).toBe(200);
    });
  });

  describe('a refusal in the log', () => {
    let testApp: TestApp;
    beforeAll(async () => {
      testApp = await createTestApp({ NODE_ENV: 'production', APP_ORIGIN: 'https://market.example' });
    });
    afterAll(() => testApp.close());

    it('logs one line naming the Origin it got and the one it expects, without the query string', async () => {
      const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      try {
        await testApp.http
          .post('/api/users/login?api_key=secret-value')
          .set('Origin', 'http://127.0.0.1:3000')
          .set('Sec-Fetch-Site', 'cross-site')
          .send({ email: 'someone@example.test', password: 'whatever-password' })
          .expect(403);
        const lines = warn.mock.calls.map(([message]) => String(message));
        expect(lines).toHaveLength(1);
        expect(lines[0]).toContain('Origin http://127.0.0.1:3000');
        expect(lines[0]).toContain('expected https://market.example');
        expect(lines[0]).not.toContain('secret-value');
      } finally {
        warn.mockRestore();
      }
    });
  });
});
