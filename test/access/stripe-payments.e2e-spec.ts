import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import type Stripe from 'stripe';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser, TestUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { ImitationStripe } from './support/imitation-stripe';

type Agent = TestAgent<Test>;
type Buyer = { user: TestUser; agent: Agent };

const WEBHOOK = '/api/payments/stripe/webhook';

describe('payments with Stripe Checkout (the real SDK against an imitation Stripe API)', () => {
  const stripe = new ImitationStripe('sk_test_imitation_key_123', 'whsec_imitation_secret_456');
  let testApp: TestApp;
  let owner: Buyer;
  let paidId: string;

  const grant = (agent: Agent, assetId: string) =>
    agent.post('/api/access/grant').set('Origin', TEST_ORIGIN).send({ assetId });
  // Stripe posts without Origin, Referer or cookies.
  const deliver = (body: string, signature?: string) => {
    const call = testApp.http.post(WEBHOOK).set('Content-Type', 'application/json; charset=utf-8');
    return (signature ? call.set('Stripe-Signature', signature) : call).send(body);
  };
  const deliverEvent = (event: Stripe.Event) => {
    const { body, signature } = stripe.signed(event);
    return deliver(body, signature);
  };

  async function one<Row>(sql: string, params: unknown[]): Promise<Row> {
    const [row] = await testApp.dataSource.query(sql, params);
    return row as Row;
  }
  const subscriberCount = async (assetId: string) =>
    (await one<{ count: number }>(`SELECT subscriber_count AS count FROM assets WHERE id = $1`, [assetId]))
      .count;
  const grantRows = async (userId: string, assetId: string) =>
    (
      await one<{ count: number }>(
        `SELECT count(*)::int AS count FROM access_grants WHERE user_id = $1 AND asset_id = $2`,
        [userId, assetId],
      )
    ).count;
  const purchaseRow = (id: string) =>
    one<{ status: string; checkout_url: string | null; payment_intent_id: string | null }>(
      `SELECT status, checkout_url, payment_intent_id FROM purchases WHERE id = $1`,
      [id],
    );
  const eventRows = async (eventId: string) =>
    (
      await one<{ count: number }>(`SELECT count(*)::int AS count FROM payment_events WHERE event_id = $1`, [
        eventId,
      ])
    ).count;

  /** A new buyer who started a checkout for the paid dataset; its answer. */
  async function startCheckout(assetId = paidId) {
    const buyer = await createLoggedInUser(testApp);
    const response = await grant(buyer.agent, assetId).expect(200);
    return { buyer, answer: response.body, sessionId: response.body.purchase.payment_reference as string };
  }

  beforeAll(async () => {
    const apiBase = await stripe.start();
    testApp = await createTestApp({
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_BASE: apiBase,
    });
    owner = await createLoggedInUser(testApp);
    paidId = await uploadDataset(owner.agent, { title: 'Weather archive', price: '19.99' });
  });
  afterAll(async () => {
    await testApp.close();
    await stripe.stop();
  });

  it('does not yet buy for an organisation through the hosted checkout (400), and opens no session', async () => {
    const editor = await createLoggedInUser(testApp);
    const created = await editor.agent
      .post('/api/organisations')
      .set('Origin', TEST_ORIGIN)
      .send({ name: 'Buyers', slug: `buyers-${editor.user.id.slice(0, 8)}` })
      .expect(201);
    const callsBefore = stripe.calls.length;
    const response = await editor.agent
      .post('/api/access/grant')
      .set('Origin', TEST_ORIGIN)
      .send({ assetId: paidId, organisationId: created.body.id })
      .expect(400);
    expect(response.body.message).toBe(
      'Paid datasets cannot be bought for an organisation with this payment provider yet. Buy it for yourself, or get free datasets for the organisation.',
    );
    expect(stripe.calls.length).toBe(callsBefore);
    const orders = await testApp.dataSource.query(`SELECT 1 FROM purchases WHERE user_id = $1`, [
      editor.user.id,
    ]);
    expect(orders).toHaveLength(0);
  });

  it('tells the checkout that Stripe runs in test mode with test keys', async () => {
    const response = await testApp.http.get('/api/access/payments').expect(200);
    expect(response.body).toEqual({ provider: 'stripe', test_mode: true });
  });

  it('opens a Checkout Session with our price, ids and return pages, and grants nothing yet', async () => {
    const callsBefore = stripe.calls.length;
    const { buyer, answer } = await startCheckout();
    expect(answer).toEqual({
      granted: false,
      assetId: paidId,
      checkout_url: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/),
      purchase: {
        id: expect.any(String),
        amount: 19.99,
        currency: 'USD',
        status: 'pending',
        provider: 'stripe',
        payment_reference: expect.stringMatching(/^cs_test_/),
        test_mode: true,
        created_at: expect.any(String),
      },
    });
    const calls = stripe.calls.slice(callsBefore);
    expect(calls).toHaveLength(1);
    const purchaseId = answer.purchase.id;
    const metadata = { purchase_id: purchaseId, user_id: buyer.user.id, asset_id: paidId };
    expect(calls[0]).toEqual({
      method: 'POST',
      path: '/v1/checkout/sessions',
      contentType: 'application/x-www-form-urlencoded',
      idempotencyKey: `checkout-${purchaseId}`,
      body: {
        mode: 'payment',
        line_items: [
          {
            quantity: '1',
            price_data: { currency: 'usd', unit_amount: '1999', product_data: { name: 'Weather archive' } },
          },
        ],
        client_reference_id: purchaseId,
        metadata,
        payment_intent_data: { metadata },
        success_url: `${TEST_ORIGIN}/dataset_profile/${paidId}?checkout=success`,
        cancel_url: `${TEST_ORIGIN}/dataset_profile/${paidId}?checkout=cancelled`,
      },
    });
    expect(await grantRows(buyer.user.id, paidId)).toBe(0);
    expect((await buyer.agent.get('/api/access/my').expect(200)).body).toEqual([]);
    expect(await purchaseRow(purchaseId)).toMatchObject({
      status: 'pending',
      checkout_url: answer.checkout_url,
    });
  });

  it('offers the same open checkout when the buyer asks again, without a second session or order', async () => {
    const { buyer, answer } = await startCheckout();
    const callsBefore = stripe.calls.length;
    const again = await grant(buyer.agent, paidId).expect(200);
    expect(again.body).toEqual(answer);
    expect(stripe.calls.length).toBe(callsBefore);
    const orders = await one<{ count: number }>(
      `SELECT count(*)::int AS count FROM purchases WHERE user_id = $1`,
      [buyer.user.id],
    );
    expect(orders.count).toBe(1);
  });

  it('grants access once on the signed checkout.session.completed event', async () => {
    const { buyer, answer, sessionId } = await startCheckout();
    const count = await subscriberCount(paidId);
    const response = await deliverEvent(stripe.complete(sessionId)).expect(200);
    expect(response.body).toEqual({ received: true, duplicate: false });
    expect(await purchaseRow(answer.purchase.id)).toEqual({
      status: 'paid',
      checkout_url: null,
      payment_intent_id: stripe.session(sessionId).payment_intent,
    });
    expect(await grantRows(buyer.user.id, paidId)).toBe(1);
    expect(await subscriberCount(paidId)).toBe(count + 1);
    expect((await buyer.agent.get('/api/access/my').expect(200)).body).toEqual([paidId]);
    const again = await grant(buyer.agent, paidId).expect(200);
    expect(again.body).toEqual({ granted: true, already: true, assetId: paidId, reason: 'purchase' });
  });

  it('grants nothing more when the same event is delivered again, even after the buyer removed it', async () => {
    const { buyer, sessionId } = await startCheckout();
    const delivery = stripe.signed(stripe.complete(sessionId));
    await deliver(delivery.body, delivery.signature).expect(200);
    const count = await subscriberCount(paidId);

    const replay = await deliver(delivery.body, delivery.signature).expect(200);
    expect(replay.body).toEqual({ received: true, duplicate: true });
    expect(await grantRows(buyer.user.id, paidId)).toBe(1);
    expect(await subscriberCount(paidId)).toBe(count);

    await buyer.agent
      .post('/api/access/remove')
      .set('Origin', TEST_ORIGIN)
      .send({ assetId: paidId })
      .expect(200);
    await deliver(delivery.body, delivery.signature).expect(200);
    expect(await grantRows(buyer.user.id, paidId)).toBe(0);
    expect(await subscriberCount(paidId)).toBe(count - 1);
    const eventId = (JSON.parse(delivery.body) as Stripe.Event).id;
    expect(await eventRows(eventId)).toBe(1);
  });

  it('refuses a forged, tampered or missing signature with 400 and changes nothing', async () => {
    const { buyer, answer, sessionId } = await startCheckout();
    const event = stripe.complete(sessionId);
    const forged = stripe.signed(event, 'whsec_someone_elses_secret');
    const genuine = stripe.signed(event);
    const tampered = genuine.body.replace(answer.purchase.id, '00000000-0000-4000-8000-000000000000');
    const count = await subscriberCount(paidId);

    for (const [body, signature] of [
      [forged.body, forged.signature],
      [tampered, genuine.signature],
      [genuine.body, 't=1,v1=0000'],
    ]) {
      const response = await deliver(body, signature).expect(400);
      expect(response.body.error).toBe('Invalid Stripe signature');
    }
    expect((await deliver(genuine.body).expect(400)).body.error).toBe('Missing Stripe signature');

    expect(await purchaseRow(answer.purchase.id)).toMatchObject({
      status: 'pending',
      payment_intent_id: null,
    });
    expect(await grantRows(buyer.user.id, paidId)).toBe(0);
    expect(await subscriberCount(paidId)).toBe(count);
    expect(await eventRows(event.id)).toBe(0);
  });

  it('marks the order expired when the checkout expires, and the next Buy opens a new checkout', async () => {
    const { buyer, answer, sessionId } = await startCheckout();
    await deliverEvent(stripe.expire(sessionId)).expect(200);
    expect(await purchaseRow(answer.purchase.id)).toMatchObject({ status: 'expired', checkout_url: null });
    expect(await grantRows(buyer.user.id, paidId)).toBe(0);

    const retry = await grant(buyer.agent, paidId).expect(200);
    expect(retry.body).toMatchObject({ granted: false, purchase: { status: 'pending' } });
    expect(retry.body.purchase.id).not.toBe(answer.purchase.id);
    expect(retry.body.checkout_url).not.toBe(answer.checkout_url);
  });

  it('takes access away on a full refund; buying again needs a new payment', async () => {
    const { buyer, answer, sessionId } = await startCheckout();
    await deliverEvent(stripe.complete(sessionId)).expect(200);
    const count = await subscriberCount(paidId);

    await deliverEvent(stripe.refund(sessionId, 500)).expect(200);
    expect(await purchaseRow(answer.purchase.id)).toMatchObject({ status: 'paid' });
    expect(await grantRows(buyer.user.id, paidId)).toBe(1);

    await deliverEvent(stripe.refund(sessionId)).expect(200);
    expect(await purchaseRow(answer.purchase.id)).toMatchObject({ status: 'refunded' });
    expect(await grantRows(buyer.user.id, paidId)).toBe(0);
    expect(await subscriberCount(paidId)).toBe(count - 1);

    const notices = (await buyer.agent.get('/api/notifications').expect(200)).body;
    expect(notices.map((notice: { kind: string }) => notice.kind)).toEqual(['refund', 'receipt']);
    expect(notices[0].subject).toBe('Refund for Weather archive');
    expect(notices[0].text).toContain('Your access to the dataset ended with the refund.');
    expect(notices[1].text).toContain(`Order: ${answer.purchase.id}`);

    const again = await grant(buyer.agent, paidId).expect(200);
    expect(again.body).toMatchObject({ granted: false, purchase: { status: 'pending' } });
  });

  it('remembers a full refund delivered before its completion: the completion grants nothing', async () => {
    const { buyer, answer, sessionId } = await startCheckout();
    const completion = stripe.complete(sessionId);
    const refund = stripe.refund(sessionId);
    const count = await subscriberCount(paidId);

    expect((await deliverEvent(refund).expect(200)).body).toEqual({ received: true, duplicate: false });
    await deliverEvent(completion).expect(200);

    expect(await purchaseRow(answer.purchase.id)).toEqual({
      status: 'refunded',
      checkout_url: null,
      payment_intent_id: stripe.session(sessionId).payment_intent,
    });
    expect(await grantRows(buyer.user.id, paidId)).toBe(0);
    expect(await subscriberCount(paidId)).toBe(count);
    expect((await buyer.agent.get('/api/access/my').expect(200)).body).toEqual([]);
  });

  it('ends a paid-then-refunded payment the same way whichever event arrives first', async () => {
    const outcomes = [];
    for (const refundFirst of [false, true]) {
      const { buyer, answer, sessionId } = await startCheckout();
      const completion = stripe.complete(sessionId);
      const refund = stripe.refund(sessionId);
      for (const event of refundFirst ? [refund, completion] : [completion, refund])
        await deliverEvent(event).expect(200);
      const { status } = await purchaseRow(answer.purchase.id);
      outcomes.push({ status, grants: await grantRows(buyer.user.id, paidId) });
    }
    expect(outcomes).toEqual([
      { status: 'refunded', grants: 0 },
      { status: 'refunded', grants: 0 },
    ]);
  });

  it('keeps a partial refund delivered first from blocking the later completion', async () => {
    const { buyer, answer, sessionId } = await startCheckout();
    const completion = stripe.complete(sessionId);
    await deliverEvent(stripe.refund(sessionId, 100)).expect(200);
    await deliverEvent(completion).expect(200);
    expect(await purchaseRow(answer.purchase.id)).toMatchObject({ status: 'paid' });
    expect(await grantRows(buyer.user.id, paidId)).toBe(1);
  });

  it('matches a refund that names our order but not a known payment intent, before the completion', async () => {
    const { buyer, answer, sessionId } = await startCheckout();
    const completion = stripe.complete(sessionId);
    const refund = stripe.refund(sessionId);
    const charge = refund.data.object as Stripe.Charge;
    charge.metadata = { purchase_id: answer.purchase.id };
    await deliverEvent(refund).expect(200);
    const [recorded] = await testApp.dataSource.query(
      `SELECT purchase_id FROM payment_events WHERE event_id = $1`,
      [refund.id],
    );
    expect(recorded).toEqual({ purchase_id: answer.purchase.id });
    await deliverEvent(completion).expect(200);
    expect(await purchaseRow(answer.purchase.id)).toMatchObject({ status: 'refunded' });
    expect(await grantRows(buyer.user.id, paidId)).toBe(0);
  });

  it('matches a completion by its session id when it carries no order id', async () => {
    const { buyer, answer, sessionId } = await startCheckout();
    const completion = stripe.complete(sessionId);
    const session = completion.data.object as Stripe.Checkout.Session;
    session.metadata = {};
    session.client_reference_id = null;
    await deliverEvent(completion).expect(200);
    expect(await purchaseRow(answer.purchase.id)).toMatchObject({ status: 'paid' });
    expect(await grantRows(buyer.user.id, paidId)).toBe(1);
  });

  it('grants nothing for a completion whose amount or currency differs from the order', async () => {
    for (const change of [{ amount_total: 1 }, { currency: 'eur' }]) {
      const { buyer, answer, sessionId } = await startCheckout();
      const completion = stripe.complete(sessionId);
      Object.assign(completion.data.object, change);
      await deliverEvent(completion).expect(200);
      expect(await purchaseRow(answer.purchase.id)).toMatchObject({
        status: 'pending',
        payment_intent_id: null,
      });
      expect(await grantRows(buyer.user.id, paidId)).toBe(0);
    }
  });

  it('gives a paid dataset back without a new checkout after the buyer removed it', async () => {
    const { buyer, answer, sessionId } = await startCheckout();
    await deliverEvent(stripe.complete(sessionId)).expect(200);
    await buyer.agent
      .post('/api/access/remove')
      .set('Origin', TEST_ORIGIN)
      .send({ assetId: paidId })
      .expect(200);
    const callsBefore = stripe.calls.length;
    const back = await grant(buyer.agent, paidId).expect(200);
    expect(back.body).toMatchObject({
      granted: true,
      already: false,
      reason: 'purchase',
      purchase: { id: answer.purchase.id, status: 'paid' },
    });
    expect(stripe.calls.length).toBe(callsBefore);
  });

  it('waits for a delayed payment method: access only when the async payment succeeds', async () => {
    const { buyer, answer, sessionId } = await startCheckout();
    await deliverEvent(stripe.complete(sessionId, 'unpaid')).expect(200);
    expect(await purchaseRow(answer.purchase.id)).toMatchObject({ status: 'pending' });
    expect(await grantRows(buyer.user.id, paidId)).toBe(0);

    await deliverEvent(stripe.settleDelayed(sessionId, true)).expect(200);
    expect(await purchaseRow(answer.purchase.id)).toMatchObject({ status: 'paid' });
    expect(await grantRows(buyer.user.id, paidId)).toBe(1);
  });

  it('closes the order as failed when the delayed payment fails, granting nothing', async () => {
    const { buyer, answer, sessionId } = await startCheckout();
    await deliverEvent(stripe.complete(sessionId, 'unpaid')).expect(200);
    await deliverEvent(stripe.settleDelayed(sessionId, false)).expect(200);
    expect(await purchaseRow(answer.purchase.id)).toMatchObject({ status: 'failed', checkout_url: null });
    expect(await grantRows(buyer.user.id, paidId)).toBe(0);
  });

  it('acknowledges events it does not act on and changes nothing', async () => {
    const { buyer, answer, sessionId } = await startCheckout();
    const event = stripe.other('checkout.session.updated', sessionId);
    expect((await deliverEvent(event).expect(200)).body).toEqual({ received: true, duplicate: false });
    expect(await eventRows(event.id)).toBe(1);
    expect(await purchaseRow(answer.purchase.id)).toMatchObject({ status: 'pending' });
    expect(await grantRows(buyer.user.id, paidId)).toBe(0);
  });

  it('answers 502 and closes the order as failed when Stripe refuses to open the checkout', async () => {
    const buyer = await createLoggedInUser(testApp);
    stripe.refuseNext(400);
    const response = await grant(buyer.agent, paidId).expect(502);
    expect(response.body.error).toBe('The payment provider could not be reached. Please try again.');
    const orders = await testApp.dataSource.query(
      `SELECT status, checkout_url FROM purchases WHERE user_id = $1`,
      [buyer.user.id],
    );
    expect(orders).toEqual([{ status: 'failed', checkout_url: null }]);
    expect(await grantRows(buyer.user.id, paidId)).toBe(0);

    const retry = await grant(buyer.agent, paidId).expect(200);
    expect(retry.body).toMatchObject({ granted: false, purchase: { status: 'pending' } });
  });

  it('opens one checkout for one order when the buyer clicks Buy several times at once', async () => {
    const buyer = await createLoggedInUser(testApp);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => grant(buyer.agent, paidId).expect(200)),
    );
    const urls = new Set(answers.map((answer) => answer.body.checkout_url));
    expect(urls.size).toBe(1);
    const orders = await testApp.dataSource.query(
      `SELECT status, checkout_url FROM purchases WHERE user_id = $1`,
      [buyer.user.id],
    );
    expect(orders).toEqual([{ status: 'pending', checkout_url: [...urls][0] }]);
    // Clicks racing for the order ask Stripe with the order's idempotency key: one session.
    const purchaseId = answers[0].body.purchase.id;
    const creates = stripe.calls.filter((call) => call.body.client_reference_id === purchaseId);
    expect(new Set(creates.map((call) => call.idempotencyKey))).toEqual(new Set([`checkout-${purchaseId}`]));
  });

  it('still grants free datasets at once, without Stripe', async () => {
    const freeId = await uploadDataset(owner.agent, { title: 'Free with Stripe on', price: '0' });
    const buyer = await createLoggedInUser(testApp);
    const callsBefore = stripe.calls.length;
    const response = await grant(buyer.agent, freeId).expect(200);
    expect(response.body).toEqual({ granted: true, already: false, assetId: freeId, reason: 'free' });
    expect(stripe.calls.length).toBe(callsBefore);
  });
});

describe('the Stripe webhook with the test payment provider', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  it('does not exist', async () => {
    await testApp.http
      .post(WEBHOOK)
      .set('Stripe-Signature', 't=1,v1=0000')
      .set('Content-Type', 'application/json')
      .send('{"id":"evt_1"}')
      .expect(404);
  });
});
