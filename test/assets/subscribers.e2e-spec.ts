import { randomUUID } from 'node:crypto';
import { subscriberCount } from '../../src/access/access-gate.service';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

/**
 * One definition of a dataset's subscribers, holders other than its owner, wherever a number is
 * shown: the detail page's Details, the catalogue and its sort, the owner's activity view and
 * the count a deletion answers.
 */
describe('dataset subscribers: holders other than the owner, everywhere', () => {
  let testApp: TestApp;
  // A made-up word keeps this suite's datasets apart from other suites running at the same time.
  const token = `zs${randomUUID().replace(/-/g, '').slice(0, 10)}`;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  it('counts an owner and two holders as two subscribers in every view, and keeps the count on grants and removals', async () => {
    const owner = await createLoggedInUser(testApp);
    const holders = [await createLoggedInUser(testApp), await createLoggedInUser(testApp)];
    const twice = await uploadDataset(owner.agent, { title: `Two ${token}` });
    const once = await uploadDataset(owner.agent, { title: `One ${token}` });
    const none = await uploadDataset(owner.agent, { title: `None ${token}` });
    const grant = (agent: (typeof holders)[number]['agent'], assetId: string) =>
      agent.post('/api/access/grant').set('Origin', TEST_ORIGIN).send({ assetId }).expect(200);
    for (const holder of holders) await grant(holder.agent, twice);
    await grant(holders[0].agent, once);
    // The owner asking again for their own dataset counts nothing.
    await grant(owner.agent, twice);

    const detail = async (id: string) =>
      (await owner.agent.get(`/api/assets/${id}`).expect(200)).body.subscriber_count;
    expect(await detail(twice)).toBe(2);

    const catalogue = await testApp.http
      .get('/api/assets')
      .query({ search: token, sort: 'subscribers' })
      .expect(200);
    expect(
      catalogue.body.map((item: { id: string; subscriber_count: number }) => [
        item.id,
        item.subscriber_count,
      ]),
    ).toEqual([
      [twice, 2],
      [once, 1],
      [none, 0],
    ]);

    const activity = (await owner.agent.get(`/api/assets/${twice}/activity`).expect(200)).body;
    expect(activity.days.at(-1).subscribers).toBe(2);

    // The stored count is the one definition's count, also after a holder removes their access.
    const stored = async (id: string) =>
      (
        await testApp.dataSource.query(
          `SELECT asset.subscriber_count AS stored, ${subscriberCount('asset')} AS counted
             FROM assets asset WHERE asset.id = $1`,
          [id],
        )
      )[0];
    await holders[1].agent
      .post('/api/access/remove')
      .set('Origin', TEST_ORIGIN)
      .send({ assetId: twice })
      .expect(200);
    expect(await stored(twice)).toEqual({ stored: 1, counted: 1 });
    await grant(holders[1].agent, twice);
    expect(await stored(twice)).toEqual({ stored: 2, counted: 2 });
    expect(await stored(none)).toEqual({ stored: 0, counted: 0 });

    const deleted = await owner.agent.delete(`/api/assets/${twice}`).set('Origin', TEST_ORIGIN).expect(200);
    expect(deleted.body.holders_lost_access).toBe(2);
  });
});
