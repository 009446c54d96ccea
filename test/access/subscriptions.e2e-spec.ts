import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { SubscriptionStates } from '../../src/access/subscriptions/subscription-states';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser, TestUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

type Agent = TestAgent<Test>;
type Person = { user: TestUser; agent: Agent };

const DAY_MS = 24 * 60 * 60 * 1000;

describe('subscriptions with the test payment provider', () => {
  let testApp: TestApp;
  let seller: Person;

  const post = (agent: Agent, path: string, body: object = {}) =>
    agent.post(path).set('Origin', TEST_ORIGIN).send(body);
  const patchListing = (assetId: string, body: object) =>
    seller.agent.patch(`/api/assets/${assetId}`).set('Origin', TEST_ORIGIN).send(body);
  const held = async (agent: Agent) => (await agent.get('/api/access/my').expect(200)).body as string[];
  const mySubscriptions = async (agent: Agent) => (await agent.get('/api/subscriptions').expect(200)).body;
  const notices = async (agent: Agent) =>
    (
      (await agent.get('/api/notifications').expect(200)).body as Array<{ kind: string; subject: string }>
    ).map((notice) => `${notice.kind}: ${notice.subject}`);
  const sweep = () => testApp.app.get(SubscriptionStates).endLapsed();

  async function listing(title: string, price: string, terms: object): Promise<string> {
    const assetId = await uploadDataset(seller.agent, { title, price });
    await patchListing(assetId, terms).expect(200);
    return assetId;
  }

  async function subscriber(assetId: string) {
    const buyer = await createLoggedInUser(testApp);
    const answer = (await post(buyer.agent, '/api/access/grant', { assetId }).expect(200)).body;
    return { ...buyer, answer, id: answer.subscription?.id as string };
  }

  beforeAll(async () => {
    testApp = await createTestApp();
    seller = await createLoggedInUser(testApp);
  });
  afterAll(() => testApp.close());

  it('shows a listing as one-off by default and with its recurring terms once set', async () => {
    const assetId = await uploadDataset(seller.agent, { title: 'Terms shown', price: '4.00' });
    expect((await seller.agent.get(`/api/assets/${assetId}`).expect(200)).body).toMatchObject({
      billing_interval: null,
      trial_days: 0,
    });
    await patchListing(assetId, { billing_interval: 'year', trial_days: 30 }).expect(200);
    expect((await seller.agent.get(`/api/assets/${assetId}`).expect(200)).body).toMatchObject({
      billing_interval: 'year',
      trial_days: 30,
    });
    await patchListing(assetId, { billing_interval: 'one_off' }).expect(200);
    expect((await seller.agent.get(`/api/assets/${assetId}`).expect(200)).body.billing_interval).toBeNull();
  });

  it.each([
    [{ billing_interval: 'week' }, "billing_interval must be 'one_off', 'month' or 'year'"],
    [{ trial_days: 91 }, 'trial_days must be a whole number of days from 0 to 90'],
    [{ trial_days: -1 }, 'trial_days must be a whole number of days from 0 to 90'],
    [{ trial_days: 1.5 }, 'trial_days must be a whole number of days from 0 to 90'],
    [{ trial_days: '7' }, 'trial_days must be a whole number of days from 0 to 90'],
  ])('refuses %j with 400', async (body, message) => {
    const assetId = await uploadDataset(seller.agent, { price: '4.00' });
    const response = await patchListing(assetId, body).expect(400);
    expect(JSON.stringify(response.body)).toContain(message);
  });

  it('starts a trial at once, with access until the trial ends', async () => {
    const assetId = await listing('Trial monthly', '9.99', { billing_interval: 'month', trial_days: 14 });
    const before = Date.now();
    const buyer = await subscriber(assetId);
    expect(buyer.answer).toMatchObject({
      granted: true,
      already: false,
      reason: 'subscription',
      subscription: { status: 'trialing', amount: 9.99, interval: 'month', trial_days: 14, provider: 'test' },
    });
    const renewal = new Date(buyer.answer.subscription.current_period_end).getTime();
    expect(renewal).toBeGreaterThanOrEqual(before + 14 * DAY_MS);
    expect(renewal).toBeLessThan(before + 15 * DAY_MS);
    expect(await held(buyer.agent)).toEqual([assetId]);
    expect(await mySubscriptions(buyer.agent)).toEqual([
      expect.objectContaining({ id: buyer.id, status: 'trialing', in_force: true }),
    ]);
    // Asking again grants nothing new.
    const again = await post(buyer.agent, '/api/access/grant', { assetId }).expect(200);
    expect(again.body).toMatchObject({ granted: true, already: true, reason: 'subscription' });
    expect(await mySubscriptions(buyer.agent)).toHaveLength(1);
  });

  it('starts a yearly subscription active, and Remove then Subscribe gives access back without a second one', async () => {
    const assetId = await listing('Yearly', '100', { billing_interval: 'year' });
    const buyer = await subscriber(assetId);
    expect(buyer.answer.subscription.status).toBe('active');
    const renewal = new Date(buyer.answer.subscription.current_period_end);
    expect(renewal.getUTCFullYear()).toBe(new Date().getUTCFullYear() + 1);
    await post(buyer.agent, '/api/access/remove', { assetId }).expect(200);
    expect(await held(buyer.agent)).toEqual([]);
    const back = await post(buyer.agent, '/api/access/grant', { assetId }).expect(200);
    expect(back.body).toMatchObject({
      granted: true,
      reason: 'subscription',
      subscription: { id: buyer.id },
    });
    expect(await mySubscriptions(buyer.agent)).toHaveLength(1);
  });

  it('simulates a failed renewal (grace period, notice) and a renewal that recovers it', async () => {
    const assetId = await listing('Renewals', '3.00', { billing_interval: 'month' });
    const buyer = await subscriber(assetId);
    const failed = (await post(buyer.agent, `/api/subscriptions/${buyer.id}/fail-renewal`).expect(200)).body;
    expect(failed).toMatchObject({ status: 'past_due', in_force: true });
    const graceEnd = new Date(failed.access_until).getTime();
    expect(graceEnd).toBeGreaterThan(Date.now() + 6 * DAY_MS);
    expect(graceEnd).toBeLessThanOrEqual(Date.now() + 7 * DAY_MS);
    expect(await held(buyer.agent)).toEqual([assetId]);
    expect(await notices(buyer.agent)).toContain(
      'subscription_past_due: Payment failed for your subscription to Renewals',
    );

    const renewed = (await post(buyer.agent, `/api/subscriptions/${buyer.id}/renew-now`).expect(200)).body;
    expect(renewed).toMatchObject({ status: 'active', in_force: true, access_until: null });
    expect(new Date(renewed.current_period_end).getTime()).toBeGreaterThan(
      new Date(buyer.answer.subscription.current_period_end).getTime(),
    );
  });

  it('ends access after the grace period with a notice; subscribing again starts a new subscription', async () => {
    const assetId = await listing('Lapsing', '3.00', { billing_interval: 'month' });
    const buyer = await subscriber(assetId);
    await post(buyer.agent, `/api/subscriptions/${buyer.id}/fail-renewal`).expect(200);
    await testApp.dataSource.query(
      `UPDATE subscriptions SET past_due_since = past_due_since - interval '8 days',
              access_until = access_until - interval '8 days' WHERE id = $1`,
      [buyer.id],
    );
    // The gate stops honouring the grant at once, before the sweep: only the sample is shown.
    expect(await held(buyer.agent)).toEqual([]);
    expect((await buyer.agent.get(`/api/assets/${assetId}`).expect(200)).body.has_access).toBe(false);
    expect((await buyer.agent.get(`/api/assets/${assetId}/data`).expect(200)).body.sample).toBe(true);
    await sweep();
    expect(await notices(buyer.agent)).toContain('subscription_ended: Your access to Lapsing has ended');
    expect(
      (
        await testApp.dataSource.query(
          `SELECT count(*)::int AS count FROM access_grants WHERE user_id = $1`,
          [buyer.user.id],
        )
      )[0].count,
    ).toBe(0);
    // A renewal cannot revive what has lapsed; a new subscription can.
    const again = await post(buyer.agent, '/api/access/grant', { assetId }).expect(200);
    expect(again.body.subscription.id).not.toBe(buyer.id);
    expect(await held(buyer.agent)).toEqual([assetId]);
  });

  it('cancels at the period end: access until then, a notice once it ends; cancelling twice is harmless', async () => {
    const assetId = await listing('Cancelled', '3.00', { billing_interval: 'month' });
    const buyer = await subscriber(assetId);
    const cancelled = (await post(buyer.agent, `/api/subscriptions/${buyer.id}/cancel`).expect(200)).body;
    expect(cancelled).toMatchObject({ status: 'active', cancel_at_period_end: true, in_force: true });
    expect(cancelled.access_until).toBe(cancelled.current_period_end);
    expect((await post(buyer.agent, `/api/subscriptions/${buyer.id}/cancel`).expect(200)).body).toEqual(
      cancelled,
    );
    expect(await held(buyer.agent)).toEqual([assetId]);

    await testApp.dataSource.query(
      `UPDATE subscriptions SET current_period_end = now() - interval '1 minute',
              access_until = now() - interval '1 minute' WHERE id = $1`,
      [buyer.id],
    );
    expect(await held(buyer.agent)).toEqual([]);
    await sweep();
    expect(await notices(buyer.agent)).toContain('subscription_ended: Your access to Cancelled has ended');
  });

  it("keeps another buyer's subscription out of reach (404) and refuses to cancel an ended one", async () => {
    const assetId = await listing('Private matters', '3.00', { billing_interval: 'month' });
    const buyer = await subscriber(assetId);
    const other = await createLoggedInUser(testApp);
    expect(await mySubscriptions(other.agent)).toEqual([]);
    for (const action of ['cancel', 'renew-now', 'fail-renewal'])
      expect(
        (await post(other.agent, `/api/subscriptions/${buyer.id}/${action}`).expect(404)).body.message,
      ).toBe('Subscription not found');
    await testApp.dataSource.query(`UPDATE subscriptions SET status = 'canceled' WHERE id = $1`, [buyer.id]);
    expect((await post(buyer.agent, `/api/subscriptions/${buyer.id}/cancel`).expect(400)).body.message).toBe(
      'This subscription has already ended',
    );
    await testApp.http.get('/api/subscriptions').expect(401);
  });

  it('keeps the price a subscriber took when the seller changes it', async () => {
    const assetId = await listing('Price change', '2.00', { billing_interval: 'month' });
    const early = await subscriber(assetId);
    await patchListing(assetId, { price: '6.50' }).expect(200);
    const late = await subscriber(assetId);
    expect((await mySubscriptions(early.agent))[0].amount).toBe(2);
    expect((await mySubscriptions(late.agent))[0].amount).toBe(6.5);
  });
});
