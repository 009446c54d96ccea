import { ConfigError } from '../../src/config/environment';
import { loadConfig } from '../../src/config/app-config';
import { createTestApp, TestApp } from '../support/test-app';

/** Traps a production start must not leave open. */
describe('production start', () => {
  describe('in production', () => {
    let testApp: TestApp;

    beforeAll(async () => {
      testApp = await createTestApp({ NODE_ENV: 'production' });
    });
    afterAll(() => testApp.close());

    it('has no demo live feed (404): made-up readings never pass for data', async () => {
      await testApp.http.get('/api/demo/live-feed').expect(404);
    });
  });

  describe('in development', () => {
    let testApp: TestApp;

    beforeAll(async () => {
      testApp = await createTestApp({ NODE_ENV: 'development' });
    });
    afterAll(() => testApp.close());

    it('serves the demo live feed', async () => {
      const answer = await testApp.http.get('/api/demo/live-feed').expect(200);
      expect(Array.isArray(answer.body)).toBe(true);
    });
  });

  it('names every missing and bad setting in one start', () => {
    let error: unknown;
    try {
      loadConfig({ NODE_ENV: 'production', PORT: 'not-a-port', DATA_DIR: '/nonexistent-e40' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('PORT');
    expect(message).toContain('SESSION_SECRET, ENCRYPTION_KEY: required when NODE_ENV=production');
  });
});
