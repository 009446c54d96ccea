import { randomUUID } from 'node:crypto';
import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { AccessGate } from '../../src/access/access-gate.service';
import { GrantsService } from '../../src/access/grants.service';
import { NotificationsService } from '../../src/notifications/notifications.service';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser, TestUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { SubscriptionsService } from '../../src/access/subscriptions/subscriptions.service';
import { AuditService } from '../../src/audit/audit.service';

type Agent = TestAgent<Test>;

describe('access: my, grant, remove', () => {
  let testApp: TestApp;
  let owner: { user: TestUser; agent: Agent };
  let buyer: { user: TestUser; agent: Agent };
  let freeId: string;
  let paidId: string;
  let privateId: string;

  const grant = (agent: Agent, assetId: unknown) =>
    agent.post('/api/access/grant').set('Origin', TEST_ORIGIN).send({ assetId });
  const remove = (agent: Agent, assetId: unknown) =>
    agent.post('/api/access/remove').set('Origin', TEST_ORIGIN).send({ assetId });

  async function subscriberCount(assetId: string): Promise<number> {
    const [row] = await testApp.dataSource.query(`SELECT subscriber_count FROM assets WHERE id = $1`, [
      assetId,
    ]);
    return row.subscriber_count;
  }

  async function grantRows(assetId: string): Promise<number> {
    const [row] = await testApp.dataSource.query(
      `SELECT count(*)::int AS count FROM access_grants WHERE asset_id = $1`,
      [assetId],
    );
    return row.count;
  }

  beforeAll(async () => {
    testApp = await createTestApp();
    owner = await createLoggedInUser(testApp);
    buyer = await createLoggedInUser(testApp);
    freeId = await uploadDataset(owner.agent, { title: 'Free data', price: '0' });
    paidId = await uploadDataset(owner.agent, { title: 'Paid data', price: '19.99' });
    privateId = await uploadDataset(owner.agent, { title: 'Private data', is_public: 'false' });
  });
  afterAll(() => testApp.close());

  describe('GET access/my', () => {
    it('lists the owner’s own datasets', async () => {
      const response = await owner.agent.get('/api/access/my').expect(200);
      expect(response.body).toEqual(expect.arrayContaining([freeId, paidId, privateId]));
      expect(response.body).toHaveLength(3);
    });

    it('answers an empty list to a visitor and to a user without access', async () => {
      expect((await testApp.http.get('/api/access/my').expect(200)).body).toEqual([]);
      const fresh = await createLoggedInUser(testApp);
      expect((await fresh.agent.get('/api/access/my').expect(200)).body).toEqual([]);
    });
  });

  describe('GET access/payments', () => {
    it('tells anyone that checkout runs in test mode with the built-in provider', async () => {
      const response = await testApp.http.get('/api/access/payments').expect(200);
      expect(response.body).toEqual({ provider: 'test', test_mode: true });
    });
  });

  describe('POST access/grant', () => {
    it('asks a visitor to log in', async () => {
      const response = await grant(testApp.http as unknown as Agent, freeId).expect(401);
      expect(response.body.error).toBe('Please log in to continue');
    });

    it('grants a free dataset at once and counts the subscriber', async () => {
      const user = await createLoggedInUser(testApp);
      const before = await subscriberCount(freeId);
      const response = await grant(user.agent, freeId).expect(200);
      expect(response.body).toEqual({ granted: true, already: false, assetId: freeId, reason: 'free' });
      expect(await subscriberCount(freeId)).toBe(before + 1);
      expect((await user.agent.get('/api/access/my').expect(200)).body).toEqual([freeId]);
      const [purchases] = await testApp.dataSource.query(
        `SELECT count(*)::int AS count FROM purchases WHERE user_id = $1`,
        [user.user.id],
      );
      expect(purchases.count).toBe(0);
    });

    it('records an order for a paid dataset through the test payment provider', async () => {
      const response = await grant(buyer.agent, paidId).expect(200);
      expect(response.body).toEqual({
        granted: true,
        already: false,
        assetId: paidId,
        reason: 'purchase',
        purchase: {
          id: expect.any(String),
          amount: 19.99,
          currency: 'USD',
          status: 'paid',
          provider: 'test',
          payment_reference: expect.stringMatching(/^test_/),
          test_mode: true,
          created_at: expect.any(String),
        },
      });
      const orders = await testApp.dataSource.query(
        `SELECT user_id, asset_id, amount, currency, status, provider, payment_reference FROM purchases WHERE id = $1`,
        [response.body.purchase.id],
      );
      expect(orders).toEqual([
        {
          user_id: buyer.user.id,
          asset_id: paidId,
          amount: '19.99',
          currency: 'USD',
          status: 'paid',
          provider: 'test',
          payment_reference: response.body.purchase.payment_reference,
        },
      ]);
      const [grantRow] = await testApp.dataSource.query(
        `SELECT reason FROM access_grants WHERE user_id = $1 AND asset_id = $2`,
        [buyer.user.id, paidId],
      );
      expect(grantRow.reason).toBe('purchase');
    });

    it('keeps the price paid when the owner changes the price later', async () => {
      const user = await createLoggedInUser(testApp);
      const assetId = await uploadDataset(owner.agent, { title: 'Repriced', price: '10.00' });
      const response = await grant(user.agent, assetId).expect(200);
      await testApp.dataSource.query(`UPDATE assets SET price = 25 WHERE id = $1`, [assetId]);
      const [order] = await testApp.dataSource.query(`SELECT amount FROM purchases WHERE id = $1`, [
        response.body.purchase.id,
      ]);
      expect(order.amount).toBe('10.00');
    });

    it('is harmless when asked again: no second purchase, no second count', async () => {
      const count = await subscriberCount(paidId);
      const response = await grant(buyer.agent, paidId).expect(200);
      expect(response.body).toEqual({ granted: true, already: true, assetId: paidId, reason: 'purchase' });
      expect(await subscriberCount(paidId)).toBe(count);
      const [orders] = await testApp.dataSource.query(
        `SELECT count(*)::int AS count FROM purchases WHERE user_id = $1 AND asset_id = $2`,
        [buyer.user.id, paidId],
      );
      expect(orders.count).toBe(1);
    });

    it('gives a dataset back without a second charge after the buyer removed it', async () => {
      const returning = await createLoggedInUser(testApp);
      const first = await grant(returning.agent, paidId).expect(200);
      await remove(returning.agent, paidId).expect(200);
      const count = await subscriberCount(paidId);
      const again = await grant(returning.agent, paidId).expect(200);
      expect(again.body).toMatchObject({ granted: true, already: false, reason: 'purchase' });
      expect(again.body.purchase).toEqual(first.body.purchase);
      expect(await subscriberCount(paidId)).toBe(count + 1);
      const [orders] = await testApp.dataSource.query(
        `SELECT count(*)::int AS count FROM purchases WHERE user_id = $1 AND asset_id = $2`,
        [returning.user.id, paidId],
      );
      expect(orders.count).toBe(1);
    });

    it('says on the dataset, in its details and the catalogue, that the buyer who removed it bought it once', async () => {
      const returning = await createLoggedInUser(testApp);
      const bought = async () => {
        const detail = (await returning.agent.get(`/api/assets/${paidId}`).expect(200)).body;
        const listed = (await returning.agent.get('/api/assets').query({ search: 'Paid data' }).expect(200))
          .body;
        const card = listed.find((item: { id: string }) => item.id === paidId);
        return { detail: detail.bought, card: card.bought, access: detail.has_access };
      };
      await expect(bought()).resolves.toEqual({ detail: false, card: false, access: false });
      await grant(returning.agent, paidId).expect(200);
      await remove(returning.agent, paidId).expect(200);
      await expect(bought()).resolves.toEqual({ detail: true, card: true, access: false });
      // Visitors and other users were never told about anyone's purchases.
      expect((await testApp.http.get(`/api/assets/${paidId}`).expect(200)).body.bought).toBe(false);
      expect((await owner.agent.get(`/api/assets/${paidId}`).expect(200)).body.bought).toBe(false);
    });

    it('tells the owner they already have access', async () => {
      const count = await subscriberCount(freeId);
      const response = await grant(owner.agent, freeId).expect(200);
      expect(response.body).toMatchObject({ granted: true, already: true, reason: 'owner' });
      expect(await subscriberCount(freeId)).toBe(count);
    });

    it('answers 404 for a private dataset of someone else, an unknown id and a non-uuid', async () => {
      for (const assetId of [privateId, randomUUID(), 'not-a-uuid']) {
        const response = await grant(buyer.agent, assetId).expect(404);
        expect(response.body.error).toBe('Dataset not found');
      }
      expect(await grantRows(privateId)).toBe(1);
    });

    it('validates the body', async () => {
      await grant(buyer.agent, undefined).expect(400);
      await grant(buyer.agent, 42).expect(400);
    });
  });

  describe('POST access/remove', () => {
    it('asks a visitor to log in', async () => {
      await remove(testApp.http as unknown as Agent, freeId).expect(401);
    });

    it('removes the caller’s access and the subscriber count with it', async () => {
      const user = await createLoggedInUser(testApp);
      await grant(user.agent, freeId).expect(200);
      const count = await subscriberCount(freeId);
      const response = await remove(user.agent, freeId).expect(200);
      expect(response.body).toEqual({ removed: true, assetId: freeId });
      expect(await subscriberCount(freeId)).toBe(count - 1);
      expect((await user.agent.get('/api/access/my').expect(200)).body).toEqual([]);
    });

    it('is harmless for access the caller does not hold', async () => {
      const user = await createLoggedInUser(testApp);
      const count = await subscriberCount(freeId);
      expect((await remove(user.agent, freeId).expect(200)).body).toEqual({
        removed: false,
        assetId: freeId,
      });
      expect(await subscriberCount(freeId)).toBe(count);
    });

    it('refuses to take an owner’s own access away', async () => {
      const response = await remove(owner.agent, paidId).expect(400);
      expect(response.body.error).toBe('You own this dataset; an owner cannot remove their own access.');
      expect((await owner.agent.get('/api/access/my').expect(200)).body).toContain(paidId);
    });

    it('answers 404 for datasets the caller cannot see', async () => {
      await remove(buyer.agent, privateId).expect(404);
      await remove(buyer.agent, randomUUID()).expect(404);
      await remove(buyer.agent, 'nope').expect(404);
    });

    it('lets a buyer of a dataset that became private remove it, after which it disappears', async () => {
      const user = await createLoggedInUser(testApp);
      const assetId = await uploadDataset(owner.agent, { title: 'Soon private' });
      await grant(user.agent, assetId).expect(200);
      await testApp.dataSource.query(`UPDATE assets SET is_public = false WHERE id = $1`, [assetId]);
      await user.agent.get(`/api/assets/${assetId}`).expect(200);
      await remove(user.agent, assetId).expect(200);
      await user.agent.get(`/api/assets/${assetId}`).expect(404);
    });
  });

  describe('subscriber_count under concurrency', () => {
    it('equals the number of users other than the owner with access after concurrent grants and removes', async () => {
      const assetId = await uploadDataset(owner.agent, { title: 'Busy', price: '2.00' });
      const users = await Promise.all(Array.from({ length: 8 }, () => createLoggedInUser(testApp)));
      // Every user grants twice at once; half of them also remove at the same time.
      await Promise.all(
        users.flatMap((user, index) => [
          grant(user.agent, assetId).expect(200),
          grant(user.agent, assetId).expect(200),
          ...(index % 2 === 0 ? [remove(user.agent, assetId).expect(200)] : []),
        ]),
      );
      // The owner's own grant is no subscription.
      expect(await subscriberCount(assetId)).toBe((await grantRows(assetId)) - 1);
      await Promise.all(users.map((user) => remove(user.agent, assetId).expect(200)));
      expect(await subscriberCount(assetId)).toBe(0);
      expect(await grantRows(assetId)).toBe(1);
      const [orders] = await testApp.dataSource.query(
        `SELECT count(*)::int AS count, count(DISTINCT user_id)::int AS buyers FROM purchases WHERE asset_id = $1`,
        [assetId],
      );
      // A double click never charges twice: at most one order per user and grant.
      expect(orders.count).toBeLessThanOrEqual(users.length + users.length / 2);
      expect(orders.buyers).toBe(users.length);
    });

    it('never double-charges two simultaneous purchases by the same user', async () => {
      const assetId = await uploadDataset(owner.agent, { title: 'Double click', price: '4.00' });
      const user = await createLoggedInUser(testApp);
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => grant(user.agent, assetId).expect(200)),
      );
      expect(answers.filter((answer) => answer.body.already === false)).toHaveLength(1);
      const [orders] = await testApp.dataSource.query(
        `SELECT count(*)::int AS count FROM purchases WHERE asset_id = $1`,
        [assetId],
      );
      expect(orders.count).toBe(1);
      expect(await subscriberCount(assetId)).toBe(1);
    });
  });
});

describe('GrantsService with another payment provider behind the same interface', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  it('records a declined payment, grants nothing and answers 402 with the reason', async () => {
    const declining = {
      name: 'acme-pay',
      testMode: false,
      charge: async () => ({
        status: 'failed' as const,
        reference: 'acme_123',
        testMode: false,
        failureMessage: 'card declined',
      }),
    };
    const gate = new AccessGate(testApp.dataSource);
    const service = new GrantsService(
      testApp.dataSource,
      gate,
      declining,
      testApp.app.get(NotificationsService),
      testApp.app.get(AuditService),
      testApp.app.get(SubscriptionsService),
    );
    const owner = await createLoggedInUser(testApp);
    const buyer = await createLoggedInUser(testApp);
    const assetId = await uploadDataset(owner.agent, { title: 'Declined', price: '7.00' });
    await expect(service.grant(buyer.user, assetId)).rejects.toMatchObject({
      status: 402,
      message: 'Payment failed: card declined',
    });
    const orders = await testApp.dataSource.query(
      `SELECT status, provider, payment_reference, amount FROM purchases WHERE asset_id = $1`,
      [assetId],
    );
    expect(orders).toEqual([
      { status: 'failed', provider: 'acme-pay', payment_reference: 'acme_123', amount: '7.00' },
    ]);
    expect((await gate.requireDataset(buyer.user, assetId, 'sample')).held).toBe(false);
    const [asset] = await testApp.dataSource.query(`SELECT subscriber_count FROM assets WHERE id = $1`, [
      assetId,
    ]);
    expect(asset.subscriber_count).toBe(0);
  });
});
