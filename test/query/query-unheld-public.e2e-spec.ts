import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

type Agent = TestAgent<Test>;

/** A table the caller does not hold: a public listing says where to get it, anything else reveals nothing. */
describe('POST /api/query: a table of a listing the caller does not hold', () => {
  let testApp: TestApp;
  let buyer: Agent;
  let publicId: string;
  let publicName: string;
  let privateName: string;

  beforeAll(async () => {
    testApp = await createTestApp();
    const owner = await createLoggedInUser(testApp);
    buyer = (await createLoggedInUser(testApp)).agent;
    publicId = await uploadDataset(owner.agent, { title: 'Global Stock Prices 2024', price: '9.50' });
    publicName = (await owner.agent.get(`/api/assets/${publicId}`).expect(200)).body.readable_name;
    const privateId = await uploadDataset(owner.agent, { title: 'Board Minutes', is_public: 'false' });
    privateName = (await owner.agent.get(`/api/assets/${privateId}`).expect(200)).body.readable_name;
  });
  afterAll(() => testApp.close());

  const query = (sql: string) => buyer.post('/api/query').set('Origin', TEST_ORIGIN).send({ sql });

  it('names a public dataset and links to it', async () => {
    const response = await query(`SELECT * FROM ${publicName}`).expect(400);
    expect(response.body.message).toBe("You don't hold Global Stock Prices 2024: get it to query it");
    expect(response.body.position).toBe(15);
    expect(response.body.listing).toEqual({
      id: publicId,
      title: 'Global Stock Prices 2024',
      url: expect.stringMatching(new RegExp(`/dataset_profile/${publicId}$`)),
    });
  });

  it('keeps "does not exist" for a private dataset and for an unknown name', async () => {
    for (const name of [privateName, 'no_such_table_anywhere']) {
      const response = await query(`SELECT * FROM ${name}`).expect(400);
      expect(response.body.message).toBe(`relation "${name}" does not exist`);
      expect(response.body.listing).toBeUndefined();
    }
  });
});
