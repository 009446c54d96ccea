import { ConfigError, EnvironmentVariables } from './environment';

/** Stripe Checkout settings, present only when PAYMENT_PROVIDER=stripe. */
export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** True for sk_test_/rk_test_ keys: Stripe's test mode, no money moves. */
  testMode: boolean;
  /** Where the SDK sends API calls; unset means Stripe itself (api.stripe.com over https). */
  apiBase?: { protocol: 'http' | 'https'; host: string; port: number };
}

export interface PaymentsConfig {
  provider: 'test' | 'stripe';
  /** The operator deliberately runs the approve-everything test provider in production. */
  testPaymentsInProduction: boolean;
  stripe?: StripeSettings;
  /** Days a subscription whose renewal failed (past_due) keeps its access (SUBSCRIPTION_GRACE_DAYS). */
  subscriptionGraceDays: number;
}

function apiBaseOf(url: string): StripeSettings['apiBase'] {
  const parsed = new URL(url);
  const protocol = parsed.protocol === 'http:' ? 'http' : 'https';
  const port = parsed.port ? Number(parsed.port) : protocol === 'http' ? 80 : 443;
  return { protocol, host: parsed.hostname, port };
}

/**
 * Which payment provider checks out paid datasets. The test provider approves every charge, so a
 * production start with it is refused unless ALLOW_TEST_PAYMENTS_IN_PRODUCTION says it is meant.
 */
export function settlePayments(env: EnvironmentVariables, isProduction: boolean): PaymentsConfig {
  const provider = env.PAYMENT_PROVIDER ?? 'test';
  const grace = env.SUBSCRIPTION_GRACE_DAYS ?? 7;
  if (provider === 'test') {
    const allowed = env.ALLOW_TEST_PAYMENTS_IN_PRODUCTION ?? false;
    if (isProduction && !allowed) {
      throw new ConfigError(
        'Invalid configuration:\n' +
          '  PAYMENT_PROVIDER: the test provider approves every purchase without payment and may not run ' +
          'when NODE_ENV=production. Set PAYMENT_PROVIDER=stripe with STRIPE_SECRET_KEY and ' +
          'STRIPE_WEBHOOK_SECRET, or ALLOW_TEST_PAYMENTS_IN_PRODUCTION=true to give paid datasets away on purpose.',
      );
    }
    return { provider, testPaymentsInProduction: isProduction && allowed, subscriptionGraceDays: grace };
  }
  const missing = [
    !env.STRIPE_SECRET_KEY && 'STRIPE_SECRET_KEY',
    !env.STRIPE_WEBHOOK_SECRET && 'STRIPE_WEBHOOK_SECRET',
  ].filter(Boolean);
  if (!env.STRIPE_SECRET_KEY || !env.STRIPE_WEBHOOK_SECRET) {
    throw new ConfigError(
      `Invalid configuration:\n  ${missing.join(', ')}: required when PAYMENT_PROVIDER=stripe`,
    );
  }
  return {
    provider,
    testPaymentsInProduction: false,
    subscriptionGraceDays: grace,
    stripe: {
      secretKey: env.STRIPE_SECRET_KEY,
      webhookSecret: env.STRIPE_WEBHOOK_SECRET,
      testMode: /^(sk|rk)_test_/.test(env.STRIPE_SECRET_KEY),
      apiBase: env.STRIPE_API_BASE ? apiBaseOf(env.STRIPE_API_BASE) : undefined,
    },
  };
}
