import { Logger } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config';
import type { PaymentProvider } from './payment-provider';
import { StripePaymentProvider } from './stripe-payment.provider';
import { TestPaymentProvider } from './test-payment.provider';

type BootLog = Pick<Logger, 'log' | 'warn'>;

/** The provider PAYMENT_PROVIDER names; says at boot which one checks out paid datasets. */
export function createPaymentProvider(
  config: AppConfig,
  logger: BootLog = new Logger('Payments'),
): PaymentProvider {
  const { payments } = config;
  if (payments.provider === 'stripe' && payments.stripe) {
    const mode = payments.stripe.testMode ? 'Stripe test mode, no money moves' : 'live';
    logger.log(`Paid datasets are checked out with Stripe Checkout (${mode})`);
    return new StripePaymentProvider(payments.stripe, config.appOrigin);
  }
  if (payments.testPaymentsInProduction) {
    logger.warn(
      '!!! TEST PAYMENTS IN PRODUCTION: every purchase is approved without any payment, paid datasets ' +
        'are given away (ALLOW_TEST_PAYMENTS_IN_PRODUCTION=true). Set PAYMENT_PROVIDER=stripe to take real payments. !!!',
    );
  }
  return new TestPaymentProvider();
}
