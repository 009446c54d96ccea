import { BadGatewayException, Logger } from '@nestjs/common';
import Stripe from 'stripe';
import type { StripeSettings } from '../../config/payments-config';
import { toMinorUnits } from './minor-units';
import type {
  ChargeRequest,
  ChargeResult,
  PaymentProvider,
  SubscriptionCheckout,
  SubscriptionRequest,
} from './payment-provider';

/** Path of the webhook endpoint Stripe posts its signed events to (outside the JSON body parser). */
export const STRIPE_WEBHOOK_PATH = '/api/payments/stripe/webhook';

/** How long the API may take before a purchase answers "try again" instead of waiting on. */
const STRIPE_TIMEOUT_MS = 15_000;

/**
 * Stripe Checkout: each purchase becomes a Checkout Session the buyer pays on Stripe's page. The
 * charge answers 'pending'; only the signed `checkout.session.completed` event grants access.
 */
export class StripePaymentProvider implements PaymentProvider {
  readonly name = 'stripe';
  readonly hostedCheckout = true;
  readonly testMode: boolean;
  private readonly logger = new Logger(StripePaymentProvider.name);
  private readonly stripe: Stripe;
  private readonly webhookSecret: string;

  constructor(
    settings: StripeSettings,
    private readonly appOrigin: string,
  ) {
    this.testMode = settings.testMode;
    this.webhookSecret = settings.webhookSecret;
    this.stripe = new Stripe(settings.secretKey, {
      timeout: STRIPE_TIMEOUT_MS,
      maxNetworkRetries: 2,
      telemetry: false,
      ...settings.apiBase,
    });
  }

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    const datasetPage = `${this.appOrigin}/dataset_profile/${request.assetId}`;
    const metadata = {
      purchase_id: request.purchaseId,
      user_id: request.userId,
      asset_id: request.assetId,
    };
    let session: Stripe.Checkout.Session;
    try {
      session = await this.stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: request.currency.toLowerCase(),
                unit_amount: toMinorUnits(request.amount, request.currency),
                product_data: { name: request.description },
              },
            },
          ],
          client_reference_id: request.purchaseId,
          metadata,
          // Refunds arrive as charge events; the PaymentIntent carries the same order ids.
          payment_intent_data: { metadata },
          success_url: `${datasetPage}?checkout=success`,
          cancel_url: `${datasetPage}?checkout=cancelled`,
        },
        // A retried request (ours or the SDK's) never opens a second session for one order.
        { idempotencyKey: `checkout-${request.purchaseId}` },
      );
    } catch (error) {
      const detail = error instanceof Stripe.errors.StripeError ? `${error.type} ${error.code ?? ''}` : '';
      this.logger.error(`Stripe checkout for purchase ${request.purchaseId} failed: ${detail}`.trim());
      throw new BadGatewayException('The payment provider could not be reached. Please try again.');
    }
    if (!session.url) throw new BadGatewayException('The payment provider returned no checkout page.');
    return {
      status: 'pending',
      reference: session.id,
      testMode: !session.livemode,
      checkout: { url: session.url, expiresAt: new Date(session.expires_at * 1000) },
    };
  }

  /**
   * A Checkout Session in subscription mode: the price is given inline (price_data with
   * `recurring`), so each subscription keeps the price it was taken at whatever the seller sets
   * later. Our ids go on the subscription's metadata too: its events and invoices carry them.
   */
  async startSubscription(request: SubscriptionRequest): Promise<SubscriptionCheckout> {
    const datasetPage = `${this.appOrigin}/dataset_profile/${request.assetId}`;
    const metadata = {
      subscription_id: request.subscriptionId,
      user_id: request.userId,
      asset_id: request.assetId,
    };
    let session: Stripe.Checkout.Session;
    try {
      session = await this.stripe.checkout.sessions.create(
        {
          mode: 'subscription',
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: request.currency.toLowerCase(),
                unit_amount: toMinorUnits(request.amount, request.currency),
                recurring: { interval: request.interval },
                product_data: { name: request.description },
              },
            },
          ],
          client_reference_id: request.subscriptionId,
          metadata,
          subscription_data: {
            metadata,
            ...(request.trialDays > 0 ? { trial_period_days: request.trialDays } : {}),
          },
          success_url: `${datasetPage}?checkout=success`,
          cancel_url: `${datasetPage}?checkout=cancelled`,
        },
        { idempotencyKey: `subscription-checkout-${request.subscriptionId}` },
      );
    } catch (error) {
      throw this.unreachable(error, `subscription checkout ${request.subscriptionId}`);
    }
    if (!session.url) throw new BadGatewayException('The payment provider returned no checkout page.');
    return {
      reference: session.id,
      testMode: !session.livemode,
      checkout: { url: session.url, expiresAt: new Date(session.expires_at * 1000) },
    };
  }

  /** Sets cancel_at_period_end: Stripe keeps the subscription to the period's end, then deletes it. */
  async cancelAtPeriodEnd(providerSubscriptionId: string): Promise<void> {
    try {
      await this.stripe.subscriptions.update(providerSubscriptionId, { cancel_at_period_end: true });
    } catch (error) {
      throw this.unreachable(error, `cancelling subscription ${providerSubscriptionId}`);
    }
  }

  private unreachable(error: unknown, what: string): BadGatewayException {
    const detail = error instanceof Stripe.errors.StripeError ? `${error.type} ${error.code ?? ''}` : '';
    this.logger.error(`Stripe ${what} failed: ${detail}`.trim());
    return new BadGatewayException('The payment provider could not be reached. Please try again.');
  }

  /**
   * The event Stripe signed, verified against the exact bytes received and the webhook secret
   * (timestamp within Stripe's default tolerance). Throws when the signature does not match.
   */
  verifyEvent(rawBody: Buffer, signature: string): Stripe.Event {
    return this.stripe.webhooks.constructEvent(rawBody, signature, this.webhookSecret);
  }
}
