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
import { StripeSubscriptionEvents } from './subscriptions/stripe-subscription-events';
import { SubscriptionStates } from './subscriptions/subscription-states';
import { SubscriptionsController } from './subscriptions/subscriptions.controller';
import { SubscriptionsService } from './subscriptions/subscriptions.service';

/**
 * Who may see, read and change what (AccessGate, asked by every other module), the
 * grant/buy/remove calls (GrantsService), and payments: the provider PAYMENT_PROVIDER names
 * (test or Stripe Checkout) and Stripe's webhook, which settles hosted checkouts, and subscriptions
 * to datasets with a recurring price (SubscriptionsService; their grants follow their states).
 */
@Module({
  imports: [NotificationsModule],
  controllers: [AccessController, StripeWebhookController, SubscriptionsController],
  providers: [
    AccessGate,
    GrantsService,
    PaymentEventsService,
    SubscriptionStates,
    SubscriptionsService,
    StripeSubscriptionEvents,
    { provide: PAYMENT_PROVIDER, useFactory: createPaymentProvider, inject: [APP_CONFIG] },
  ],
  exports: [AccessGate, GrantsService],
})
export class AccessModule {}
