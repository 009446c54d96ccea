import { postCsv } from '../factories/asset.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { parseCsv } from './stream.factory';

const CSV = [
  'City,Population,Share %,Capital,Founded,Note',
  'Berlin,3850809,4.62,true,1237-01-01,"Says ""hi"", then \\ leaves\nfor good ✓"',
  'Köln,1084831,1.3,false,0050-01-01,',
].join('\n');

/** The whole journey with the real modules: upload a CSV, generate a key, get access, stream. */
describe('streaming an uploaded dataset', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  async function generateKey(agent: Awaited<ReturnType<typeof createLoggedInUser>>['agent'], email: string) {
    const response = await agent
      .post('/api/dev/apikey')
      .set('Origin', TEST_ORIGIN)
      .send({ email })
      .expect(200);
    return response.body.api_key as string;
  }

  it('streams the typed columns under their CSV headers, without the hidden row id', async () => {
    const { user, agent } = await createLoggedInUser(testApp);
    const upload = await postCsv(agent, CSV, { title: 'Cities', is_public: 'false' });
    expect(upload.status).toBe(201);
    const apiKey = await generateKey(agent, user.email);

    const json = await testApp.http
      .get(`/api/stream/data/${upload.body.id}`)
      .query({ api_key: apiKey })
      .expect(200);
    expect(JSON.parse(json.text)).toEqual([
      {
        City: 'Berlin',
        Population: 3850809,
        'Share %': 4.62,
        Capital: true,
        Founded: '1237-01-01',
        Note: 'Says "hi", then \\ leaves\nfor good ✓',
      },
      {
        City: 'Köln',
        Population: 1084831,
        'Share %': 1.3,
        Capital: false,
        Founded: '0050-01-01',
        Note: null,
      },
    ]);

    const csv = await testApp.http
      .get(`/api/stream/data/${upload.body.id}`)
      .query({ api_key: apiKey, format: 'csv' })
      .expect(200);
    expect(parseCsv(csv.text)).toEqual([
      ['City', 'Population', 'Share %', 'Capital', 'Founded', 'Note'],
      ['Berlin', '3850809', '4.62', 'true', '1237-01-01', 'Says "hi", then \\ leaves\nfor good ✓'],
      ['Köln', '1084831', '1.3', 'false', '0050-01-01', null],
    ]);
  });

  it('streams a public dataset to another user only once they got access through POST access/grant', async () => {
    const { agent: ownerAgent } = await createLoggedInUser(testApp);
    const upload = await postCsv(ownerAgent, 'a,b\n1,x\n', { title: 'Open data', price: '0' });
    expect(upload.status).toBe(201);
    const { user, agent } = await createLoggedInUser(testApp);
    const apiKey = await generateKey(agent, user.email);

    await testApp.http.get(`/api/stream/data/${upload.body.id}`).query({ api_key: apiKey }).expect(404);
    const before = await testApp.http.get('/api/stream/data').query({ api_key: apiKey }).expect(200);
    expect(JSON.parse(before.text)).toEqual([]);

    await agent
      .post('/api/access/grant')
      .set('Origin', TEST_ORIGIN)
      .send({ assetId: upload.body.id })
      .expect(200);
    const after = await testApp.http
      .get(`/api/stream/data/${upload.body.id}`)
      .query({ api_key: apiKey })
      .expect(200);
    expect(JSON.parse(after.text)).toEqual([{ a: 1, b: 'x' }]);
    const general = await testApp.http.get('/api/stream/data').query({ api_key: apiKey }).expect(200);
    expect(JSON.parse(general.text)).toEqual([
      { dataset_id: upload.body.id, dataset_title: 'Open data', a: 1, b: 'x' },
    ]);

    await agent
      .post('/api/access/remove')
      .set('Origin', TEST_ORIGIN)
      .send({ assetId: upload.body.id })
      .expect(200);
    await testApp.http.get(`/api/stream/data/${upload.body.id}`).query({ api_key: apiKey }).expect(404);
  });
});
