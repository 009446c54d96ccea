import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'qs';
import Stripe from 'stripe';

interface SubscriptionData {
  interval: string;
  trialDays: number;
  metadata: Record<string, string>;
}

/** A request the SDK sent, as the imitation received it. */
export interface ReceivedCall {
  method: string;
  path: string;
  contentType: string | undefined;
  idempotencyKey: string | undefined;
  body: Record<string, unknown>;
}

type Session = Stripe.Checkout.Session;
type Subscription = Stripe.Subscription;

const stripeId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;
const DAY = 24 * 60 * 60;

/** One billing period on from `start` (seconds): a calendar month or year, as Stripe bills. */
function periodEnd(start: number, interval: string): number {
  const end = new Date(start * 1000);
  if (interval === 'year') end.setUTCFullYear(end.getUTCFullYear() + 1);
  else end.setUTCMonth(end.getUTCMonth() + 1);
  return Math.floor(end.getTime() / 1000);
}

/** The events one step of a subscription's life sends, in the order Stripe creates them. */
export interface SubscriptionStep {
  events: Stripe.Event[];
  subscription: Subscription;
}

/**
 * Just enough of the Stripe API on 127.0.0.1 for the official SDK (pointed at it through its
 * host/port/protocol options): POST /v1/checkout/sessions (payment and subscription mode) and
 * POST /v1/subscriptions/:id (cancel_at_period_end) with form-encoded parameters, bearer key
 * check, idempotent replays and Stripe's error shape. It also builds the events Stripe would send
 * for those sessions, their subscriptions and invoices (shaped as API version 2026: the period on
 * the subscription item, the invoice's subscription under parent.subscription_details), signed
 * as Stripe signs webhooks; its clock can be moved forward, like a Stripe test clock.
 */
export class ImitationStripe {
  readonly calls: ReceivedCall[] = [];
  private readonly sessions = new Map<string, Session>();
  private readonly subscriptions = new Map<string, Subscription>();
  /** Events the API calls caused (e.g. an update through POST /v1/subscriptions/:id), to deliver. */
  readonly emitted: Stripe.Event[] = [];
  /** Seconds the imitation's clock runs ahead of the real one (like a Stripe test clock). */
  private clockOffset = 0;
  private readonly byIdempotencyKey = new Map<string, string>();
  /** What a subscription-mode session's subscription will be, from its subscription_data. */
  private readonly subscriptionData = new Map<string, SubscriptionData>();
  private readonly signer = new Stripe('sk_test_signer_only');
  private refuseNextWith: number | null = null;
  private server: Server | null = null;

  constructor(
    readonly secretKey: string,
    readonly webhookSecret: string,
  ) {}

  /** Starts listening on a free loopback port; answers the STRIPE_API_BASE to configure. */
  async start(): Promise<string> {
    this.server = createServer((request, response) => void this.route(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Moves the imitation's clock forward: events and periods from now on are this much later. */
  advance(seconds: number): void {
    this.clockOffset += seconds;
  }

  now(): number {
    return Math.floor(Date.now() / 1000) + this.clockOffset;
  }

  /** The next API call answers this HTTP status with a Stripe invalid_request_error. */
  refuseNext(status: number): void {
    this.refuseNextWith = status;
  }

  session(id: string): Session {
    const session = this.sessions.get(id);
    if (!session) throw new Error(`No checkout session ${id}`);
    return session;
  }

  /**
   * The buyer finished checkout: `checkout.session.completed`, paid at once by card, or 'unpaid'
   * with a delayed method (bank debit) whose outcome follows as an async_payment event.
   */
  complete(sessionId: string, paymentStatus: 'paid' | 'unpaid' = 'paid'): Stripe.Event {
    const session = this.session(sessionId);
    Object.assign(session, {
      status: 'complete',
      payment_status: paymentStatus,
      payment_intent: stripeId('pi'),
    });
    return this.event('checkout.session.completed', session);
  }

  /** The delayed payment's outcome: `checkout.session.async_payment_succeeded` or `_failed`. */
  settleDelayed(sessionId: string, succeeded: boolean): Stripe.Event {
    const session = this.session(sessionId);
    if (succeeded) session.payment_status = 'paid';
    const type = succeeded
      ? 'checkout.session.async_payment_succeeded'
      : 'checkout.session.async_payment_failed';
    return this.event(type, session);
  }

  /** Nobody paid within the session's lifetime: `checkout.session.expired`. */
  expire(sessionId: string): Stripe.Event {
    const session = this.session(sessionId);
    Object.assign(session, { status: 'expired', url: null });
    return this.event('checkout.session.expired', session);
  }

  /** The merchant refunded `amount` minor units (the whole payment by default): `charge.refunded`. */
  refund(sessionId: string, amount?: number): Stripe.Event {
    const session = this.session(sessionId);
    const total = session.amount_total ?? 0;
    const refunded = amount ?? total;
    return this.event('charge.refunded', {
      id: stripeId('ch'),
      object: 'charge',
      amount: total,
      amount_captured: total,
      amount_refunded: refunded,
      refunded: refunded >= total,
      currency: session.currency,
      payment_intent: session.payment_intent,
      status: 'succeeded',
      livemode: false,
    });
  }

  subscription(id: string): Subscription {
    const subscription = this.subscriptions.get(id);
    if (!subscription) throw new Error(`No subscription ${id}`);
    return subscription;
  }

  /**
   * The buyer finished a subscription-mode checkout: Stripe creates the subscription (trialing
   * with trial_period_days, else active) and its first invoice (zero during a trial), then
   * completes the session. Events in Stripe's order: customer.subscription.created, invoice.paid,
   * checkout.session.completed.
   */
  completeSubscription(sessionId: string): SubscriptionStep {
    const session = this.session(sessionId);
    const data = this.subscriptionData.get(sessionId)!;
    const start = this.now();
    const trialEnd = data.trialDays > 0 ? start + data.trialDays * DAY : null;
    const id = stripeId('sub');
    const subscription = {
      id,
      object: 'subscription',
      status: trialEnd ? 'trialing' : 'active',
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      ended_at: null,
      created: start,
      start_date: start,
      currency: session.currency,
      customer: stripeId('cus'),
      livemode: false,
      metadata: data.metadata,
      trial_start: trialEnd ? start : null,
      trial_end: trialEnd,
      latest_invoice: null,
      items: {
        object: 'list',
        has_more: false,
        data: [
          {
            id: stripeId('si'),
            object: 'subscription_item',
            quantity: 1,
            current_period_start: start,
            current_period_end: trialEnd ?? periodEnd(start, data.interval),
            price: {
              id: stripeId('price'),
              object: 'price',
              type: 'recurring',
              currency: session.currency,
              unit_amount: session.amount_total,
              recurring: { interval: data.interval, interval_count: 1 },
            },
          },
        ],
      },
    } as unknown as Subscription;
    this.subscriptions.set(id, subscription);
    const created = this.event('customer.subscription.created', subscription);
    const invoice = this.invoice(
      subscription,
      trialEnd ? 0 : (session.amount_total ?? 0),
      'subscription_create',
    );
    subscription.latest_invoice = invoice.id;
    const paid = this.event('invoice.paid', invoice);
    Object.assign(session, {
      status: 'complete',
      payment_status: trialEnd ? 'no_payment_required' : 'paid',
      subscription: id,
    });
    return { events: [created, paid, this.event('checkout.session.completed', session)], subscription };
  }

  /** A renewal charged: the period moves on (a trial ends). invoice.paid, customer.subscription.updated. */
  renew(subscriptionId: string): SubscriptionStep {
    const subscription = this.subscription(subscriptionId);
    const item = subscription.items.data[0];
    const start = Math.max(this.now(), item.current_period_end);
    Object.assign(item, {
      current_period_start: start,
      current_period_end: periodEnd(start, item.price.recurring!.interval),
    });
    const invoice = this.invoice(subscription, item.price.unit_amount ?? 0, 'subscription_cycle');
    Object.assign(subscription, { status: 'active', latest_invoice: invoice.id });
    return {
      events: [
        this.event('invoice.paid', invoice),
        this.event('customer.subscription.updated', subscription),
      ],
      subscription,
    };
  }

  /** A renewal's charge declined: invoice.payment_failed, then customer.subscription.updated (past_due). */
  failRenewal(subscriptionId: string): SubscriptionStep {
    const subscription = this.subscription(subscriptionId);
    const invoice = this.invoice(subscription, 0, 'subscription_cycle', 'open');
    Object.assign(subscription, { status: 'past_due', latest_invoice: invoice.id });
    return {
      events: [
        this.event('invoice.payment_failed', invoice),
        this.event('customer.subscription.updated', subscription),
      ],
      subscription,
    };
  }

  /** The subscription ended (cancelled, or at its cancelled period's end): customer.subscription.deleted. */
  endSubscription(subscriptionId: string): SubscriptionStep {
    const subscription = this.subscription(subscriptionId);
    Object.assign(subscription, { status: 'canceled', ended_at: this.now(), canceled_at: this.now() });
    return { events: [this.event('customer.subscription.deleted', subscription)], subscription };
  }

  /** Any other event type, for one session. */
  other(type: string, sessionId: string): Stripe.Event {
    return this.event(type, this.session(sessionId));
  }

  /** The body and Stripe-Signature header Stripe would post for this event. */
  signed(event: Stripe.Event, secret = this.webhookSecret): { body: string; signature: string } {
    const body = JSON.stringify(event, null, 2);
    return { body, signature: this.signer.webhooks.generateTestHeaderString({ payload: body, secret }) };
  }

  private invoice(
    subscription: Subscription,
    amount: number,
    reason: string,
    status: 'paid' | 'open' = 'paid',
  ): Stripe.Invoice {
    const item = subscription.items.data[0];
    const subscriptionDetails = { subscription: subscription.id, metadata: subscription.metadata };
    return {
      id: stripeId('in'),
      object: 'invoice',
      status,
      billing_reason: reason,
      amount_due: amount,
      amount_paid: status === 'paid' ? amount : 0,
      currency: subscription.currency,
      customer: subscription.customer,
      livemode: false,
      created: this.now(),
      parent: {
        type: 'subscription_details',
        subscription_details: subscriptionDetails,
        quote_details: null,
      },
      lines: {
        object: 'list',
        has_more: false,
        data: [
          {
            id: stripeId('il'),
            object: 'line_item',
            amount,
            currency: subscription.currency,
            period: { start: item.current_period_start, end: item.current_period_end },
          },
        ],
      },
    } as unknown as Stripe.Invoice;
  }

  private event(type: string, object: object): Stripe.Event {
    return {
      id: stripeId('evt'),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: this.now(),
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    } as unknown as Stripe.Event;
  }

  private async route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const call: ReceivedCall = {
      method: request.method ?? '',
      path: (request.url ?? '').split('?')[0],
      contentType: request.headers['content-type'],
      idempotencyKey: request.headers['idempotency-key'] as string | undefined,
      body: parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
    };
    this.calls.push(call);
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json', 'request-id': stripeId('req') });
      response.end(JSON.stringify(body));
    };
    const error = (status: number, type: string, message: string) =>
      answer(status, { error: { type, message } });

    if (request.headers.authorization !== `Bearer ${this.secretKey}`) {
      return error(401, 'invalid_request_error', 'Invalid API Key provided');
    }
    if (this.refuseNextWith) {
      const status = this.refuseNextWith;
      this.refuseNextWith = null;
      return error(status, 'invalid_request_error', 'Refused by the imitation');
    }
    if (call.method === 'POST' && call.path === '/v1/checkout/sessions') {
      const earlier = call.idempotencyKey && this.byIdempotencyKey.get(call.idempotencyKey);
      if (earlier) return answer(200, this.session(earlier));
      const session = this.createSession(call.body);
      if (call.idempotencyKey) this.byIdempotencyKey.set(call.idempotencyKey, session.id);
      return answer(200, session);
    }
    const updating = /^\/v1\/subscriptions\/([A-Za-z0-9_]+)$/.exec(call.path);
    if (call.method === 'POST' && updating && this.subscriptions.has(updating[1])) {
      const subscription = this.subscription(updating[1]);
      if ('cancel_at_period_end' in call.body) {
        const cancel = call.body.cancel_at_period_end === 'true';
        Object.assign(subscription, {
          cancel_at_period_end: cancel,
          cancel_at: cancel ? subscription.items.data[0].current_period_end : null,
          canceled_at: cancel ? this.now() : null,
        });
      }
      this.emitted.push(this.event('customer.subscription.updated', subscription));
      return answer(200, subscription);
    }
    if (updating) return error(404, 'invalid_request_error', `No such subscription: '${updating[1]}'`);
    return error(404, 'invalid_request_error', `Unrecognized request URL (${call.method}: ${call.path})`);
  }

  private createSession(params: Record<string, unknown>): Session {
    const lineItems = params.line_items as Array<{
      quantity: string;
      price_data: { currency: string; unit_amount: string; recurring?: { interval: string } };
    }>;
    const total = lineItems.reduce(
      (sum, item) => sum + Number(item.price_data.unit_amount) * Number(item.quantity),
      0,
    );
    const id = stripeId('cs');
    const session = {
      id,
      object: 'checkout.session',
      amount_subtotal: total,
      amount_total: total,
      cancel_url: params.cancel_url,
      client_reference_id: params.client_reference_id ?? null,
      created: this.now(),
      currency: lineItems[0].price_data.currency,
      expires_at: this.now() + 24 * 60 * 60,
      livemode: false,
      metadata: params.metadata ?? {},
      mode: params.mode,
      payment_intent: null,
      subscription: null,
      payment_status: 'unpaid',
      status: 'open',
      success_url: params.success_url,
      url: `https://checkout.stripe.com/c/pay/${id}`,
    } as unknown as Session;
    this.sessions.set(id, session);
    if (params.mode === 'subscription') {
      const recurring = lineItems[0].price_data.recurring;
      const data = (params.subscription_data ?? {}) as {
        metadata?: Record<string, string>;
        trial_period_days?: string;
      };
      if (!recurring) throw new Error('subscription mode needs price_data.recurring');
      this.subscriptionData.set(id, {
        interval: recurring.interval,
        trialDays: Number(data.trial_period_days ?? 0),
        metadata: data.metadata ?? {},
      });
    }
    return session;
  }
}
