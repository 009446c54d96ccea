import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './app-config';
import { ConfigError } from './environment';

const production = (extra: Record<string, string> = {}) => ({
  NODE_ENV: 'production',
  SESSION_SECRET: 'x'.repeat(40),
  ENCRYPTION_KEY: 'ab'.repeat(32),
  DATA_DIR: mkdtempSync(join(tmpdir(), 'dm-payments-')),
  ...extra,
});
const stripeKeys = {
  PAYMENT_PROVIDER: 'stripe',
  STRIPE_SECRET_KEY: 'sk_live_hunter2hunter2',
  STRIPE_WEBHOOK_SECRET: 'whsec_hunter2hunter2',
};

describe('payments configuration', () => {
  it('uses the test provider by default outside production', () => {
    const config = loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'dm-payments-')) });
    expect(config.payments).toEqual({
      provider: 'test',
      testPaymentsInProduction: false,
      subscriptionGraceDays: 7,
    });
  });

  it('takes SUBSCRIPTION_GRACE_DAYS from 0 to 60 days and refuses anything else with a clear message', () => {
    const dataDir = () => mkdtempSync(join(tmpdir(), 'dm-payments-'));
    expect(
      loadConfig({ DATA_DIR: dataDir(), SUBSCRIPTION_GRACE_DAYS: '0' }).payments.subscriptionGraceDays,
    ).toBe(0);
    expect(
      loadConfig({ DATA_DIR: dataDir(), SUBSCRIPTION_GRACE_DAYS: '14' }).payments.subscriptionGraceDays,
    ).toBe(14);
    for (const bad of ['61', '-1', '1.5', 'week'])
      expect(() => loadConfig({ DATA_DIR: dataDir(), SUBSCRIPTION_GRACE_DAYS: bad })).toThrow(
        /SUBSCRIPTION_GRACE_DAYS/,
      );
  });

  it('refuses to start in production with the test provider', () => {
    const attempt = () => loadConfig(production());
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(
      /PAYMENT_PROVIDER: the test provider approves every purchase without payment and may not run when NODE_ENV=production/,
    );
    expect(() => loadConfig(production({ ALLOW_TEST_PAYMENTS_IN_PRODUCTION: 'false' }))).toThrow(ConfigError);
  });

  it('starts in production with the test provider only when ALLOW_TEST_PAYMENTS_IN_PRODUCTION=true', () => {
    const config = loadConfig(production({ ALLOW_TEST_PAYMENTS_IN_PRODUCTION: 'true' }));
    expect(config.payments).toEqual({
      provider: 'test',
      testPaymentsInProduction: true,
      subscriptionGraceDays: 7,
    });
  });

  it('starts in production with Stripe keys, live or test mode by the key', () => {
    expect(loadConfig(production(stripeKeys)).payments).toEqual({
      provider: 'stripe',
      testPaymentsInProduction: false,
      subscriptionGraceDays: 7,
      stripe: {
        secretKey: 'sk_live_hunter2hunter2',
        webhookSecret: 'whsec_hunter2hunter2',
        testMode: false,
        apiBase: undefined,
      },
    });
    const staging = loadConfig(production({ ...stripeKeys, STRIPE_SECRET_KEY: 'rk_test_abc' }));
    expect(staging.payments.stripe?.testMode).toBe(true);
  });

  it('names the Stripe secrets it misses', () => {
    expect(() => loadConfig(production({ PAYMENT_PROVIDER: 'stripe' }))).toThrow(
      'STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: required when PAYMENT_PROVIDER=stripe',
    );
    expect(() =>
      loadConfig(production({ PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_abc' })),
    ).toThrow('  STRIPE_WEBHOOK_SECRET: required when PAYMENT_PROVIDER=stripe');
  });

  it('reads STRIPE_API_BASE into the host, port and protocol the SDK takes', () => {
    const config = loadConfig(production({ ...stripeKeys, STRIPE_API_BASE: 'http://127.0.0.1:12111' }));
    expect(config.payments.stripe?.apiBase).toEqual({ protocol: 'http', host: '127.0.0.1', port: 12111 });
    const https = loadConfig(production({ ...stripeKeys, STRIPE_API_BASE: 'https://stripe-mock.internal' }));
    expect(https.payments.stripe?.apiBase).toEqual({
      protocol: 'https',
      host: 'stripe-mock.internal',
      port: 443,
    });
  });

  it.each([
    ['PAYMENT_PROVIDER', 'paypal'],
    ['STRIPE_API_BASE', 'http://127.0.0.1:12111/v1'],
    ['ALLOW_TEST_PAYMENTS_IN_PRODUCTION', 'perhaps'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => loadConfig(production({ ...stripeKeys, [name]: value }))).toThrow(
      new RegExp(`\\b${name}\\b`),
    );
  });

  it.each([
    ['STRIPE_SECRET_KEY', 'pk_live_hunter2'],
    ['STRIPE_WEBHOOK_SECRET', 'secret-hunter2'],
  ])('refuses a malformed %s without repeating it', (name, value) => {
    const attempt = () => loadConfig(production({ ...stripeKeys, [name]: value }));
    expect(attempt).toThrow(`${name}: `);
    expect(attempt).toThrow(`(got a value of ${value.length} characters, not shown)`);
    expect(attempt).not.toThrow(/hunter2/);
  });
});
