import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'qs';
import Stripe from 'stripe';

/** A request the SDK sent, as the imitation received it. */
export interface ReceivedCall {
  method: string;
  path: string;
  contentType: string | undefined;
  idempotencyKey: string | undefined;
  body: Record<string, unknown>;
}

type Session = Stripe.Checkout.Session;

const stripeId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);

/**
 * Just enough of the Stripe API on 127.0.0.1 for the official SDK (pointed at it through its
 * host/port/protocol options): POST /v1/checkout/sessions with form-encoded parameters, bearer
 * key check, idempotent replays and Stripe's error shape. It also builds the events Stripe would
 * send for those sessions, signed as Stripe signs webhooks.
 */
export class ImitationStripe {
  readonly calls: ReceivedCall[] = [];
  private readonly sessions = new Map<string, Session>();
  private readonly byIdempotencyKey = new Map<string, string>();
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

  /** Any other event type, for one session. */
  other(type: string, sessionId: string): Stripe.Event {
    return this.event(type, this.session(sessionId));
  }

  /** The body and Stripe-Signature header Stripe would post for this event. */
  signed(event: Stripe.Event, secret = this.webhookSecret): { body: string; signature: string } {
    const body = JSON.stringify(event, null, 2);
    return { body, signature: this.signer.webhooks.generateTestHeaderString({ payload: body, secret }) };
  }

  private event(type: string, object: object): Stripe.Event {
    return {
      id: stripeId('evt'),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: now(),
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
    return error(404, 'invalid_request_error', `Unrecognized request URL (${call.method}: ${call.path})`);
  }

  private createSession(params: Record<string, unknown>): Session {
    const lineItems = params.line_items as Array<{
      quantity: string;
      price_data: { currency: string; unit_amount: string };
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
      created: now(),
      currency: lineItems[0].price_data.currency,
      expires_at: now() + 24 * 60 * 60,
      livemode: false,
      metadata: params.metadata ?? {},
      mode: params.mode,
      payment_intent: null,
      payment_status: 'unpaid',
      status: 'open',
      success_url: params.success_url,
      url: `https://checkout.stripe.com/c/pay/${id}`,
    } as unknown as Session;
    this.sessions.set(id, session);
    return session;
  }
}
