import { Module } from '@nestjs/common';
import { APP_CONFIG } from '../config/app-config';
import { NotificationsModule } from '../notifications/notifications.module';
import { AccessGate } from './access-gate.service';
import { AccessController } from './access.controller';
import { GrantsService } from './grants.service';
import { createPaymentProvider } from './payments/create-payment-provider';
import { PaymentEventsService } from './payments/payment-events.service';
import { PAYMENT_PROVIDER } from './payments/payment-provider';
import { StripeWebhookController } from './payments/stripe-webhook.controller';

/**
 * Who may see, read and change what (AccessGate, asked by every other module), the
 * grant/buy/remove calls (GrantsService), and payments: the provider PAYMENT_PROVIDER names
 * (test or Stripe Checkout) and Stripe's webhook, which settles hosted checkouts.
 */
@Module({
  imports: [NotificationsModule],
  controllers: [AccessController, StripeWebhookController],
  providers: [
    AccessGate,
    GrantsService,
    PaymentEventsService,
    { provide: PAYMENT_PROVIDER, useFactory: createPaymentProvider, inject: [APP_CONFIG] },
  ],
  exports: [AccessGate, GrantsService],
})
export class AccessModule {}
