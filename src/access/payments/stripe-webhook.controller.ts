import {
  BadRequestException,
  Controller,
  HttpCode,
  Inject,
  Logger,
  NotFoundException,
  Post,
  Req,
} from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type Stripe from 'stripe';
import { PAYMENT_PROVIDER, PaymentProvider } from './payment-provider';
import { PaymentEventsService } from './payment-events.service';
import { StripePaymentProvider } from './stripe-payment.provider';

/**
 * Where Stripe posts its signed events (STRIPE_WEBHOOK_PATH). The body arrives unparsed: the
 * signature covers the exact bytes. Answers 404 when Stripe is not the configured provider.
 */
@ApiTags('payments')
@Controller('payments/stripe')
export class StripeWebhookController {
  private readonly logger = new Logger(StripeWebhookController.name);

  constructor(
    @Inject(PAYMENT_PROVIDER) private readonly payments: PaymentProvider,
    private readonly events: PaymentEventsService,
  ) {}

  /** Verifies the Stripe-Signature header, then settles the order; a replayed event changes nothing. */
  @Post('webhook')
  @HttpCode(200)
  @ApiOkResponse({ description: 'Event received (also for events already handled or not acted on)' })
  @ApiBadRequestResponse({ description: 'Missing or invalid Stripe-Signature: nothing changed' })
  async receive(@Req() request: Request): Promise<{ received: true; duplicate: boolean }> {
    if (!(this.payments instanceof StripePaymentProvider)) throw new NotFoundException();
    const signature = request.header('stripe-signature');
    const body: unknown = request.body;
    if (!signature || !Buffer.isBuffer(body)) throw new BadRequestException('Missing Stripe signature');
    let event: Stripe.Event;
    try {
      event = this.payments.verifyEvent(body, signature);
    } catch {
      this.logger.warn('Refused a Stripe webhook call whose signature does not match');
      throw new BadRequestException('Invalid Stripe signature');
    }
    const isNew = await this.events.handle(event);
    return { received: true, duplicate: !isNew };
  }
}
