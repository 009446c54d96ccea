import { PaymentEventsService } from '../../src/access/payments/payment-events.service';
import { SubscriptionStates } from '../../src/access/subscriptions/subscription-states';
import { uploadDataset } from '../factories/asset.factory';
import { createConnector } from '../factories/connector.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { countEvents, lastEvent } from './support';

describe('audit log: commercial events', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp({ TRUST_PROXY: 'true' });
  });
  afterAll(() => testApp.close());

  it('records a purchase, SQL over the bought dataset (not over free data) and a refund', async () => {
    const seller = await createLoggedInUser(testApp);
    const buyer = await createLoggedInUser(testApp);
    const paidId = await uploadDataset(seller.agent, { title: 'Audit paid', price: '5' });
    const freeId = await uploadDataset(seller.agent, { title: 'Audit free' });
    for (const assetId of [paidId, freeId])
      await buyer.agent
        .post('/api/access/grant')
        .set('Origin', TEST_ORIGIN)
        .set('X-Forwarded-For', '203.0.113.20')
        .send({ assetId })
        .expect(200);
    const purchase = await lastEvent(testApp, buyer.user.id, 'purchase_granted');
    expect(purchase).toMatchObject({ credential_kind: 'session', ip: '203.0.113.20' });
    expect(purchase!.detail.dataset_id).toBe(paidId);
    expect(await countEvents(testApp, buyer.user.id, 'purchase_granted')).toBe(1);

    const nameOf = async (id: string) =>
      (await buyer.agent.get(`/api/assets/${id}`).expect(200)).body.readable_name as string;
    const paidName = await nameOf(paidId);
    const freeName = await nameOf(freeId);
    await buyer.agent
      .post('/api/query')
      .set('Origin', TEST_ORIGIN)
      .send({ sql: `SELECT count(*) FROM ${freeName}` })
      .expect(200);
    expect(await countEvents(testApp, buyer.user.id, 'paid_data_queried')).toBe(0);
    const longSql = `SELECT name, amount FROM ${paidName} WHERE name <> '${'x'.repeat(300)}'`;
    await buyer.agent.post('/api/query').set('Origin', TEST_ORIGIN).send({ sql: longSql }).expect(200);
    const queried = await lastEvent(testApp, buyer.user.id, 'paid_data_queried');
    expect(queried!.detail).toEqual({ query: longSql.slice(0, 200), dataset_ids: [paidId] });
    // The seller querying their own dataset reads no bought data.
    await seller.agent
      .post('/api/query')
      .set('Origin', TEST_ORIGIN)
      .send({ sql: `SELECT count(*) FROM ${paidName}` })
      .expect(200);
    expect(await countEvents(testApp, seller.user.id, 'paid_data_queried')).toBe(0);

    // An UPDATE answers [rows, count].
    const [[order]] = await testApp.dataSource.query(
      `UPDATE purchases SET provider = 'stripe', payment_intent_id = $2 WHERE user_id = $1 AND asset_id = $3 RETURNING id`,
      [buyer.user.id, `pi_audit_${Date.now()}`, paidId],
    );
    await testApp.app.get(PaymentEventsService).handle({
      id: `evt_audit_${Date.now()}`,
      type: 'charge.refunded',
      data: { object: { refunded: true, metadata: { purchase_id: order.id } } },
    } as never);
    const refund = await lastEvent(testApp, buyer.user.id, 'refund');
    expect(refund).toMatchObject({ credential_kind: 'none' });
    expect(refund!.detail).toMatchObject({ purchase_id: order.id, dataset_id: paidId });
  });

  it('records a subscription started, SQL over its dataset, its cancellation and its end', async () => {
    const seller = await createLoggedInUser(testApp);
    const buyer = await createLoggedInUser(testApp);
    const assetId = await uploadDataset(seller.agent, { title: 'Audit monthly', price: '3' });
    await seller.agent
      .patch(`/api/assets/${assetId}`)
      .set('Origin', TEST_ORIGIN)
      .send({ billing_interval: 'month' })
      .expect(200);
    const granted = await buyer.agent
      .post('/api/access/grant')
      .set('Origin', TEST_ORIGIN)
      .set('X-Forwarded-For', '203.0.113.21')
      .send({ assetId })
      .expect(200);
    const subscriptionId = granted.body.subscription.id;
    const started = await lastEvent(testApp, buyer.user.id, 'subscription_started');
    expect(started).toMatchObject({ credential_kind: 'session', ip: '203.0.113.21' });
    expect(started!.detail).toEqual({
      subscription_id: subscriptionId,
      dataset_id: assetId,
      provider: 'test',
    });

    const name = (await buyer.agent.get(`/api/assets/${assetId}`).expect(200)).body.readable_name;
    const sql = `SELECT count(*) FROM ${name}`;
    await buyer.agent.post('/api/query').set('Origin', TEST_ORIGIN).send({ sql }).expect(200);
    expect((await lastEvent(testApp, buyer.user.id, 'paid_data_queried'))!.detail).toEqual({
      query: sql,
      dataset_ids: [assetId],
    });

    await buyer.agent
      .post(`/api/subscriptions/${subscriptionId}/cancel`)
      .set('Origin', TEST_ORIGIN)
      .expect(200);
    expect((await lastEvent(testApp, buyer.user.id, 'subscription_cancelled'))!.detail).toEqual({
      subscription_id: subscriptionId,
      dataset_id: assetId,
    });
    await testApp.dataSource.query(
      `UPDATE subscriptions SET access_until = now() - interval '1 minute' WHERE id = $1`,
      [subscriptionId],
    );
    await testApp.app.get(SubscriptionStates).endLapsed();
    const ended = await lastEvent(testApp, buyer.user.id, 'subscription_ended');
    expect(ended).toMatchObject({ credential_kind: 'none' });
    expect(ended!.detail).toEqual({
      subscription_id: subscriptionId,
      dataset_id: assetId,
      reason: 'canceled',
    });
  });

  it('records unpublishing and publishing a listing, and deleting a dataset and a connection', async () => {
    const owner = await createLoggedInUser(testApp);
    const assetId = await uploadDataset(owner.agent, { title: 'Audit listing' });
    const patch = (body: object) =>
      owner.agent.patch(`/api/assets/${assetId}`).set('Origin', TEST_ORIGIN).send(body).expect(200);
    await patch({ is_public: false });
    expect((await lastEvent(testApp, owner.user.id, 'listing_unpublished'))!.detail).toEqual({
      dataset_id: assetId,
    });
    await patch({ is_public: true });
    expect((await lastEvent(testApp, owner.user.id, 'listing_published'))!.detail).toEqual({
      dataset_id: assetId,
    });
    await patch({ description: 'Only words changed' });
    expect(await countEvents(testApp, owner.user.id, 'listing_published')).toBe(1);

    await owner.agent.delete(`/api/assets/${assetId}`).set('Origin', TEST_ORIGIN).expect(200);
    expect((await lastEvent(testApp, owner.user.id, 'dataset_deleted'))!.detail).toMatchObject({
      dataset_id: assetId,
    });

    const connector = await createConnector(testApp.dataSource);
    const [instance] = await testApp.dataSource.query(
      `INSERT INTO connector_instances (connector_id, owner_id, title, output_table_name)
       VALUES ($1, $2, 'Audit connection', $3) RETURNING id`,
      [connector.id, owner.user.id, `audit_${Date.now()}`],
    );
    await owner.agent
      .post(`/api/connectors/remove/${instance.id}`)
      .set('Origin', TEST_ORIGIN)
      .expect((response) => expect(response.status).toBeLessThan(300));
    expect((await lastEvent(testApp, owner.user.id, 'connection_deleted'))!.detail).toMatchObject({
      connection_id: instance.id,
    });
  });
});
