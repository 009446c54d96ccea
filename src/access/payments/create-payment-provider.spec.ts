import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../config/app-config';
import { createPaymentProvider } from './create-payment-provider';

function bootLog() {
  const lines: Array<{ level: 'log' | 'warn'; text: string }> = [];
  return {
    lines,
    log: (text: unknown) => void lines.push({ level: 'log', text: String(text) }),
    warn: (text: unknown) => void lines.push({ level: 'warn', text: String(text) }),
  };
}

const config = (env: Record<string, string>) =>
  loadConfig({
    SESSION_SECRET: 'x'.repeat(40),
    ENCRYPTION_KEY: 'ab'.repeat(32),
    DATA_DIR: mkdtempSync(join(tmpdir(), 'dm-payments-')),
    ...env,
  });

describe('createPaymentProvider', () => {
  it('warns loudly at boot when test payments run in production on purpose', () => {
    const log = bootLog();
    const provider = createPaymentProvider(
      config({ NODE_ENV: 'production', ALLOW_TEST_PAYMENTS_IN_PRODUCTION: 'true' }),
      log,
    );
    expect(provider).toMatchObject({ name: 'test', testMode: true });
    expect(log.lines).toEqual([
      {
        level: 'warn',
        text: expect.stringMatching(
          /^!!! TEST PAYMENTS IN PRODUCTION: every purchase is approved without any payment, paid datasets are given away/,
        ),
      },
    ]);
  });

  it('stays quiet about the test provider outside production', () => {
    const log = bootLog();
    expect(createPaymentProvider(config({ NODE_ENV: 'development' }), log).name).toBe('test');
    expect(log.lines).toEqual([]);
  });

  it('builds the Stripe provider and says which mode it runs in, never the key', () => {
    const log = bootLog();
    const provider = createPaymentProvider(
      config({
        NODE_ENV: 'production',
        PAYMENT_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: 'sk_live_hunter2',
        STRIPE_WEBHOOK_SECRET: 'whsec_hunter2',
      }),
      log,
    );
    expect(provider).toMatchObject({ name: 'stripe', testMode: false });
    expect(log.lines).toEqual([
      { level: 'log', text: 'Paid datasets are checked out with Stripe Checkout (live)' },
    ]);
  });
});
