import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import type Stripe from 'stripe';
import { SubscriptionStates } from '../../src/access/subscriptions/subscription-states';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser, TestUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { ImitationStripe } from './support/imitation-stripe';

type Agent = TestAgent<Test>;

const WEBHOOK = '/api/payments/stripe/webhook';
const DAY_MS = 24 * 60 * 60 * 1000;

describe('subscriptions with Stripe Checkout in subscription mode (the real SDK against an imitation)', () => {
  const stripe = new ImitationStripe('sk_test_imitation_key_123', 'whsec_imitation_secret_456');
  let testApp: TestApp;
  let seller: { user: TestUser; agent: Agent };
  let monthlyId: string;
  let trialId: string;

  const post = (agent: Agent, path: string, body: object = {}) =>
    agent.post(path).set('Origin', TEST_ORIGIN).send(body);
  const deliver = (body: string, signature?: string) => {
    const call = testApp.http.post(WEBHOOK).set('Content-Type', 'application/json; charset=utf-8');
    return (signature ? call.set('Stripe-Signature', signature) : call).send(body);
  };
  const deliverEvent = async (event: Stripe.Event) => {
    const { body, signature } = stripe.signed(event);
    return (await deliver(body, signature).expect(200)).body as { duplicate: boolean };
  };
  const deliverAll = async (events: Stripe.Event[]) => {
    for (const event of events) await deliverEvent(event);
  };
  const held = async (agent: Agent) => (await agent.get('/api/access/my').expect(200)).body as string[];
  const mySubscriptions = async (agent: Agent) => (await agent.get('/api/subscriptions').expect(200)).body;
  const notices = async (agent: Agent) =>
    (
      (await agent.get('/api/notifications').expect(200)).body as Array<{ kind: string; subject: string }>
    ).map((notice) => notice.kind);
  const subscriberCount = async (assetId: string) =>
    (await testApp.dataSource.query(`SELECT subscriber_count FROM assets WHERE id = $1`, [assetId]))[0]
      .subscriber_count as number;

  /** A new buyer who opened a subscription checkout; the session and the buyer. */
  async function subscribe(assetId = monthlyId) {
    const buyer = await createLoggedInUser(testApp);
    const answer = (await post(buyer.agent, '/api/access/grant', { assetId }).expect(200)).body;
    const sessionId = /cs_test_[0-9a-f]+/.exec(answer.checkout_url)![0];
    return { buyer, answer, sessionId };
  }

  /** A buyer whose subscription Stripe created and whose events were all delivered. */
  async function subscribed(assetId = monthlyId) {
    const started = await subscribe(assetId);
    const step = stripe.completeSubscription(started.sessionId);
    await deliverAll(step.events);
    return { ...started, stripeId: step.subscription.id, id: started.answer.subscription.id as string };
  }

  beforeAll(async () => {
    const apiBase = await stripe.start();
    testApp = await createTestApp({
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_BASE: apiBase,
    });
    seller = await createLoggedInUser(testApp);
    monthlyId = await uploadDataset(seller.agent, { title: 'Monthly prices', price: '9.99' });
    await seller.agent
      .patch(`/api/assets/${monthlyId}`)
      .set('Origin', TEST_ORIGIN)
      .send({ billing_interval: 'month' })
      .expect(200);
    trialId = await uploadDataset(seller.agent, { title: 'Yearly with trial', price: '120' });
    await seller.agent
      .patch(`/api/assets/${trialId}`)
      .set('Origin', TEST_ORIGIN)
      .send({ billing_interval: 'year', trial_days: 14 })
      .expect(200);
  });
  afterAll(async () => {
    await testApp.close();
    await stripe.stop();
  });

  it('opens a Checkout Session in subscription mode with a recurring price, trial and our ids; grants nothing yet', async () => {
    const callsBefore = stripe.calls.length;
    const { buyer, answer } = await subscribe(trialId);
    const id = answer.subscription.id;
    expect(answer).toMatchObject({
      granted: false,
      assetId: trialId,
      checkout_url: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/),
      subscription: { id, status: 'pending', amount: 120, currency: 'USD', interval: 'year', trial_days: 14 },
    });
    const metadata = { subscription_id: id, user_id: buyer.user.id, asset_id: trialId };
    expect(stripe.calls.slice(callsBefore)).toEqual([
      {
        method: 'POST',
        path: '/v1/checkout/sessions',
        contentType: 'application/x-www-form-urlencoded',
        idempotencyKey: `subscription-checkout-${id}`,
        body: {
          mode: 'subscription',
          line_items: [
            {
              quantity: '1',
              price_data: {
                currency: 'usd',
                unit_amount: '12000',
                recurring: { interval: 'year' },
                product_data: { name: 'Yearly with trial' },
              },
            },
          ],
          client_reference_id: id,
          metadata,
          subscription_data: { metadata, trial_period_days: '14' },
          success_url: `${TEST_ORIGIN}/dataset_profile/${trialId}?checkout=success`,
          cancel_url: `${TEST_ORIGIN}/dataset_profile/${trialId}?checkout=cancelled`,
        },
      },
    ]);
    expect(await held(buyer.agent)).toEqual([]);
    // An open checkout is no subscription yet.
    expect(await mySubscriptions(buyer.agent)).toEqual([]);
    // Asking again offers the same page.
    const again = await post(buyer.agent, '/api/access/grant', { assetId: trialId }).expect(200);
    expect(again.body.checkout_url).toBe(answer.checkout_url);
  });

  it('grants access when Stripe reports the subscription trialing, with the trial end as renewal date', async () => {
    const { buyer, id, stripeId } = await subscribed(trialId);
    expect(await held(buyer.agent)).toEqual([trialId]);
    const trialEnd = stripe.subscription(stripeId).items.data[0].current_period_end;
    expect(await mySubscriptions(buyer.agent)).toEqual([
      expect.objectContaining({
        id,
        asset_id: trialId,
        status: 'trialing',
        in_force: true,
        cancel_at_period_end: false,
        current_period_end: new Date(trialEnd * 1000).toISOString(),
        access_until: null,
      }),
    ]);
  });

  it('applies an update delivered before the creation, and the late creation does not overwrite it', async () => {
    const { buyer, sessionId, answer } = await subscribe();
    const [created, paid, completed] = stripe.completeSubscription(sessionId).events;
    stripe.advance(60);
    const subscriptionId = (created.data.object as Stripe.Subscription).id;
    const [failed, pastDue] = stripe.failRenewal(subscriptionId).events;
    await deliverEvent(pastDue);
    await deliverEvent(created);
    await deliverEvent(completed);
    await deliverEvent(paid);
    await deliverEvent(failed);
    const [subscription] = await mySubscriptions(buyer.agent);
    expect(subscription).toMatchObject({ id: answer.subscription.id, status: 'past_due', in_force: true });
    expect(await held(buyer.agent)).toEqual([monthlyId]);
  });

  it('keeps an update of the same second as the creation when the creation comes after it', async () => {
    const { buyer, sessionId } = await subscribe(trialId);
    const [created, paid, completed] = stripe.completeSubscription(sessionId).events;
    const subscriptionId = (created.data.object as Stripe.Subscription).id;
    // The trial ends early and the first charge goes through, all within the creation's second.
    const renewal = stripe
      .renew(subscriptionId)
      .events.map((event) => ({ ...event, created: created.created }));
    await deliverAll(renewal);
    await deliverAll([created, paid, completed]);
    expect((await mySubscriptions(buyer.agent))[0]).toMatchObject({ status: 'active', in_force: true });
  });

  it('closes a subscription checkout that expired; the next Subscribe opens a new one', async () => {
    const { buyer, sessionId, answer } = await subscribe();
    await deliverEvent(stripe.expire(sessionId));
    const [row] = await testApp.dataSource.query(
      `SELECT status, checkout_url FROM subscriptions WHERE id = $1`,
      [answer.subscription.id],
    );
    expect(row).toEqual({ status: 'expired', checkout_url: null });
    const again = (await post(buyer.agent, '/api/access/grant', { assetId: monthlyId }).expect(200)).body;
    expect(again.subscription.id).not.toBe(answer.subscription.id);
    expect(again.checkout_url).not.toBe(answer.checkout_url);
  });

  it('ignores an older state delivered after a newer one', async () => {
    const { buyer, stripeId } = await subscribed();
    const [, pastDue] = stripe.failRenewal(stripeId).events;
    stripe.advance(60);
    const recovered = stripe.renew(stripeId).events;
    await deliverAll(recovered);
    await deliverEvent(pastDue);
    expect((await mySubscriptions(buyer.agent))[0]).toMatchObject({ status: 'active', access_until: null });
    expect(await notices(buyer.agent)).not.toContain('subscription_past_due');
  });

  it('changes nothing on a replayed event', async () => {
    const { buyer, stripeId } = await subscribed();
    const [failed, pastDue] = stripe.failRenewal(stripeId).events;
    expect(await deliverEvent(failed)).toEqual({ received: true, duplicate: false });
    expect(await deliverEvent(failed)).toEqual({ received: true, duplicate: true });
    await deliverEvent(pastDue);
    expect(await deliverEvent(pastDue)).toEqual({ received: true, duplicate: true });
    const rows = await testApp.dataSource.query(
      `SELECT count(*)::int AS count FROM payment_events WHERE event_id = $1`,
      [failed.id],
    );
    expect(rows[0].count).toBe(1);
    expect((await notices(buyer.agent)).filter((kind) => kind === 'subscription_past_due')).toHaveLength(1);
  });

  it('refuses forged and missing signatures with 400 and changes nothing', async () => {
    const { buyer, sessionId } = await subscribe();
    const [created] = stripe.completeSubscription(sessionId).events;
    const forged = stripe.signed(created, 'whsec_someone_elses_secret');
    const response = await deliver(forged.body, forged.signature).expect(400);
    expect(response.body.error).toBe('Invalid Stripe signature');
    await deliver(stripe.signed(created).body).expect(400);
    expect(await held(buyer.agent)).toEqual([]);
    expect(await mySubscriptions(buyer.agent)).toEqual([]);
  });

  it('keeps access through a failed renewal, with a notice, and recovers when the invoice is paid', async () => {
    const { buyer, stripeId } = await subscribed();
    const failure = stripe.failRenewal(stripeId);
    await deliverAll(failure.events);
    const [pastDue] = await mySubscriptions(buyer.agent);
    const failedAt = failure.events[0].created * 1000;
    expect(pastDue).toMatchObject({ status: 'past_due', in_force: true });
    expect(new Date(pastDue.access_until).getTime()).toBe(failedAt + 7 * DAY_MS);
    expect(await held(buyer.agent)).toEqual([monthlyId]);
    expect(await notices(buyer.agent)).toContain('subscription_past_due');

    stripe.advance(3600);
    await deliverAll(stripe.renew(stripeId).events);
    const [recovered] = await mySubscriptions(buyer.agent);
    expect(recovered).toMatchObject({ status: 'active', in_force: true, access_until: null });
    expect(await held(buyer.agent)).toEqual([monthlyId]);
  });

  it('ends access once the grace period has passed, with a notice', async () => {
    const { buyer, id, stripeId } = await subscribed();
    await deliverAll(stripe.failRenewal(stripeId).events);
    const countBefore = await subscriberCount(monthlyId);
    // As if the renewal had failed eight days ago.
    await testApp.dataSource.query(
      `UPDATE subscriptions SET past_due_since = past_due_since - interval '8 days',
              access_until = access_until - interval '8 days' WHERE id = $1`,
      [id],
    );
    // The gate stops honouring the grant at once, before any sweep.
    expect(await held(buyer.agent)).toEqual([]);
    await testApp.app.get(SubscriptionStates).endLapsed();
    expect(await subscriberCount(monthlyId)).toBe(countBefore - 1);
    expect(await notices(buyer.agent)).toContain('subscription_ended');
    expect((await mySubscriptions(buyer.agent))[0]).toMatchObject({ status: 'past_due', in_force: false });
  });

  it('cancels at the period end from the app through Stripe, and customer.subscription.deleted ends access', async () => {
    const { buyer, id, stripeId } = await subscribed();
    const callsBefore = stripe.calls.length;
    const cancelled = (await post(buyer.agent, `/api/subscriptions/${id}/cancel`).expect(200)).body;
    expect(stripe.calls.slice(callsBefore)).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: `/v1/subscriptions/${stripeId}`,
        body: { cancel_at_period_end: 'true' },
      }),
    ]);
    const periodEnd = stripe.subscription(stripeId).items.data[0].current_period_end * 1000;
    expect(cancelled).toMatchObject({ status: 'active', cancel_at_period_end: true, in_force: true });
    expect(cancelled.access_until).toBe(new Date(periodEnd).toISOString());
    await deliverEvent(stripe.emitted.pop()!);
    expect(await held(buyer.agent)).toEqual([monthlyId]);

    stripe.advance(60);
    await deliverAll(stripe.endSubscription(stripeId).events);
    expect(await held(buyer.agent)).toEqual([]);
    expect((await mySubscriptions(buyer.agent))[0]).toMatchObject({ status: 'canceled', in_force: false });
    expect(await notices(buyer.agent)).toContain('subscription_ended');
    // Canceled is final: an older or late update changes nothing.
    await deliverEvent(stripe.renew(stripeId).events[1]);
    expect((await mySubscriptions(buyer.agent))[0]).toMatchObject({ status: 'canceled' });
  });

  it("answers 404 for another buyer's subscription, and for the test provider's simulations", async () => {
    const { id } = await subscribed();
    const other = await createLoggedInUser(testApp);
    expect((await post(other.agent, `/api/subscriptions/${id}/cancel`).expect(404)).body.message).toBe(
      'Subscription not found',
    );
    await post(other.agent, '/api/subscriptions/not-a-uuid/cancel').expect(404);
    await post(other.agent, `/api/subscriptions/${id}/renew-now`).expect(404);
    await post(other.agent, `/api/subscriptions/${id}/fail-renewal`).expect(404);
  });

  it('charges a new price to new subscribers only', async () => {
    const assetId = await uploadDataset(seller.agent, { title: 'Repriced', price: '5.00' });
    const patch = (body: object) =>
      seller.agent.patch(`/api/assets/${assetId}`).set('Origin', TEST_ORIGIN).send(body).expect(200);
    await patch({ billing_interval: 'month' });
    const early = await subscribed(assetId);
    await patch({ price: '8.00' });
    const callsBefore = stripe.calls.length;
    const late = await subscribe(assetId);
    const lineItem = (
      stripe.calls[callsBefore].body.line_items as Array<{ price_data: { unit_amount: string } }>
    )[0];
    expect(lineItem.price_data.unit_amount).toBe('800');
    expect(late.answer.subscription.amount).toBe(8);
    expect((await mySubscriptions(early.buyer.agent))[0]).toMatchObject({ amount: 5, status: 'active' });
    expect(stripe.subscription(early.stripeId).items.data[0].price.unit_amount).toBe(500);
  });
});
