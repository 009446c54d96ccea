import { ColumnProfileService } from '../../src/assets/ingest/column-profile.service';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

const ROWS =
  'city,amount\n' + Array.from({ length: 30 }, (_, index) => `city${index},${index * 10}`).join('\n') + '\n';

describe('column profiles of paid datasets show only what the sample shows', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  it('hides the profile (top values, min and max of every row) from visitors and non-buyers, shows it to holders', async () => {
    const owner = await createLoggedInUser(testApp);
    const stranger = await createLoggedInUser(testApp);
    const buyer = await createLoggedInUser(testApp);
    const id = await uploadDataset(owner.agent, { title: 'Profiled and paid', price: '9.00' }, ROWS);
    await testApp.app.get(ColumnProfileService).settled();

    for (const agent of [testApp.http, stranger.agent]) {
      const detail = (await agent.get(`/api/assets/${id}`).expect(200)).body;
      expect(detail.profile).toEqual([]);
      expect(JSON.stringify(detail)).not.toContain('290');
    }
    await buyer.agent.post('/api/access/grant').set('Origin', TEST_ORIGIN).send({ assetId: id }).expect(200);
    for (const agent of [buyer.agent, owner.agent]) {
      const profile = (await agent.get(`/api/assets/${id}`).expect(200)).body.profile;
      expect(profile.find((column: { name: string }) => column.name === 'amount')).toMatchObject({
        min: 0,
        max: 290,
      });
    }
  });

  it('keeps showing the profile of free datasets to everyone', async () => {
    const owner = await createLoggedInUser(testApp);
    const id = await uploadDataset(owner.agent, { title: 'Profiled and free', price: '0' }, ROWS);
    await testApp.app.get(ColumnProfileService).settled();
    const profile = (await testApp.http.get(`/api/assets/${id}`).expect(200)).body.profile;
    expect(profile.find((column: { name: string }) => column.name === 'amount')).toMatchObject({
      min: 0,
      max: 290,
    });
  });
});
