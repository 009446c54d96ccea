import { DatasetActivityService } from '../../src/assets/activity/dataset-activity.service';
import { formerEntitySetName } from '../../src/odata/odata-entity-set';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

describe('usage: the owner’s activity view and the buyer’s purchases', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  it('counts grid views, stream requests and OData reads in memory and stores them per day with one upsert', async () => {
    const owner = await createLoggedInUser(testApp);
    const buyer = await createLoggedInUser(testApp);
    const id = await uploadDataset(owner.agent, { title: 'Watched' });
    await buyer.agent.post('/api/access/grant').set('Origin', TEST_ORIGIN).send({ assetId: id }).expect(200);
    const key = (
      await buyer.agent
        .post('/api/dev/apikey')
        .set('Origin', TEST_ORIGIN)
        .send({ email: buyer.user.email })
        .expect(200)
    ).body.api_key;
    for (let index = 0; index < 3; index++) await testApp.http.get(`/api/assets/${id}/data`).expect(200);
    await buyer.agent.get(`/api/assets/${id}/data`).expect(200);
    await testApp.http.get(`/api/stream/data/${id}`).query({ api_key: key }).expect(200);
    await testApp.http.get(`/api/stream/data/${id}`).query({ api_key: key, format: 'csv' }).expect(200);
    // An OData read counts once, on its first page; the pages after it and $count do not.
    const feed = `/api/odata/${formerEntitySetName({ kind: 'asset', id })}`;
    const first = await testApp.http
      .get(feed)
      .query({ api_key: key })
      .set('Prefer', 'odata.maxpagesize=1')
      .expect(200);
    const next = new URL(first.body['@odata.nextLink']);
    await testApp.http.get(`${next.pathname}${next.search}`).expect(200);
    await testApp.http.get(`${feed}/$count`).query({ api_key: key }).expect(200);

    // The counts wait in memory until a flush (the timer's, every few seconds, or this one).
    const stored = () =>
      testApp.dataSource.query(
        `SELECT grid_views, stream_requests FROM dataset_daily_activity WHERE asset_id = $1`,
        [id],
      );
    await testApp.app.get(DatasetActivityService).flush();
    expect(await stored()).toEqual([{ grid_views: 4, stream_requests: 3 }]);
    // A second batch adds to the same day's row.
    await testApp.http.get(`/api/assets/${id}/data`).expect(200);
    await testApp.app.get(DatasetActivityService).flush();
    expect(await stored()).toEqual([{ grid_views: 5, stream_requests: 3 }]);

    const activity = (await owner.agent.get(`/api/assets/${id}/activity`).expect(200)).body;
    expect(activity.days).toHaveLength(90);
    const today = activity.days.at(-1);
    expect(today).toEqual({
      day: new Date().toISOString().slice(0, 10),
      subscribers: 1,
      grid_views: 5,
      stream_requests: 3,
    });
    expect(activity.days[0]).toMatchObject({ subscribers: 0, grid_views: 0, stream_requests: 0 });

    const refused = await buyer.agent.get(`/api/assets/${id}/activity`);
    expect([refused.status, refused.body.error]).toEqual([403, 'Only the owner can manage this dataset']);
  });

  it('shows the buyer what they hold and bought, with price and order id; orders outlive a deleted dataset with the title bought', async () => {
    const owner = await createLoggedInUser(testApp);
    const buyer = await createLoggedInUser(testApp);
    const free = await uploadDataset(owner.agent, { title: 'Free one' });
    const paid = await uploadDataset(owner.agent, { title: 'Paid one', price: '7.25' });
    await buyer.agent
      .post('/api/access/grant')
      .set('Origin', TEST_ORIGIN)
      .send({ assetId: free })
      .expect(200);
    const bought = await buyer.agent
      .post('/api/access/grant')
      .set('Origin', TEST_ORIGIN)
      .send({ assetId: paid })
      .expect(200);
    const orderId = bought.body.purchase.id;
    const account = (await buyer.agent.get('/api/access/purchases').expect(200)).body;
    expect(account.held).toEqual([
      expect.objectContaining({
        asset_id: paid,
        title: 'Paid one',
        reason: 'purchase',
        order_id: orderId,
        amount: 7.25,
        currency: 'USD',
      }),
      expect.objectContaining({
        asset_id: free,
        title: 'Free one',
        reason: 'free',
        order_id: null,
        amount: null,
      }),
    ]);
    expect(account.orders).toEqual([
      expect.objectContaining({
        id: orderId,
        asset_id: paid,
        title: 'Paid one',
        amount: 7.25,
        status: 'paid',
      }),
    ]);
    // The owner's own uploads are not purchases.
    expect((await owner.agent.get('/api/access/purchases').expect(200)).body).toEqual({
      held: [],
      orders: [],
    });

    // A later rename shows in the order while the dataset exists; the title bought stays once it is gone.
    await owner.agent
      .patch(`/api/assets/${paid}`)
      .set('Origin', TEST_ORIGIN)
      .send({ title: 'Paid one, renamed' })
      .expect(200);
    const renamed = (await buyer.agent.get('/api/access/purchases').expect(200)).body;
    expect(renamed.orders[0].title).toBe('Paid one, renamed');
    // Once the buyer gave it up, nobody holds it through a purchase: the delete is a real one.
    await buyer.agent
      .post('/api/access/remove')
      .set('Origin', TEST_ORIGIN)
      .send({ assetId: paid })
      .expect(200);
    await owner.agent.delete(`/api/assets/${paid}`).set('Origin', TEST_ORIGIN).expect(200);
    const after = (await buyer.agent.get('/api/access/purchases').expect(200)).body;
    expect(after.held.map((row: { asset_id: string }) => row.asset_id)).toEqual([free]);
    expect(after.orders).toEqual([
      expect.objectContaining({ id: orderId, asset_id: null, title: 'Paid one', amount: 7.25 }),
    ]);
    await testApp.http.get('/api/access/purchases').expect(401);
  });
});
