import { Logger } from '@nestjs/common';
import { ConfigError } from '../../src/config/environment';
import { createTestApp } from '../support/test-app';

describe('starting in production with the test payment provider', () => {
  afterEach(() => jest.restoreAllMocks());

  it('is refused unless ALLOW_TEST_PAYMENTS_IN_PRODUCTION=true', async () => {
    const start = createTestApp({ NODE_ENV: 'production', ALLOW_TEST_PAYMENTS_IN_PRODUCTION: 'false' });
    await expect(start).rejects.toThrow(ConfigError);
    await expect(start).rejects.toThrow(
      /PAYMENT_PROVIDER: the test provider approves every purchase without payment/,
    );
  });

  it('warns loudly at boot when allowed, and checkout still says test mode', async () => {
    const warnings = jest.spyOn(Logger.prototype, 'warn');
    const testApp = await createTestApp({
      NODE_ENV: 'production',
      ALLOW_TEST_PAYMENTS_IN_PRODUCTION: 'true',
    });
    try {
      expect(warnings).toHaveBeenCalledWith(expect.stringMatching(/^!!! TEST PAYMENTS IN PRODUCTION: /));
      const response = await testApp.http.get('/api/access/payments').expect(200);
      expect(response.body).toEqual({ provider: 'test', test_mode: true });
    } finally {
      await testApp.close();
    }
  });

  it('stays quiet about payments outside production', async () => {
    const warnings = jest.spyOn(Logger.prototype, 'warn');
    const testApp = await createTestApp();
    try {
      expect(warnings).not.toHaveBeenCalledWith(expect.stringMatching(/TEST PAYMENTS IN PRODUCTION/));
    } finally {
      await testApp.close();
    }
  });
});
