import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { readParquet } from './support/read-parquet';

describe('GET downloads/{assetId}: downloads through the session, no API key needed', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  it('lets a buyer without an API key download CSV and JSON right after buying', async () => {
    const owner = await createLoggedInUser(testApp);
    const buyer = await createLoggedInUser(testApp);
    const id = await uploadDataset(owner.agent, { title: 'Fresh purchase', price: '4.00' });
    await buyer.agent.post('/api/access/grant').set('Origin', TEST_ORIGIN).send({ assetId: id }).expect(200);
    expect((await buyer.agent.get('/api/users/me').expect(200)).body.api_key).toBeFalsy();

    const csv = await buyer.agent.get(`/api/downloads/${id}`).expect(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.text).toBe('name,amount\nalpha,1\nbeta,2\ngamma,3\n');
    const json = await buyer.agent.get(`/api/downloads/${id}`).query({ format: 'json' }).expect(200);
    expect(JSON.parse(json.text)).toEqual([
      { name: 'alpha', amount: 1 },
      { name: 'beta', amount: 2 },
      { name: 'gamma', amount: 3 },
    ]);
  });

  it('refuses visitors (401), non-holders (404, like a missing dataset) and unknown formats (400)', async () => {
    const owner = await createLoggedInUser(testApp);
    const stranger = await createLoggedInUser(testApp);
    const id = await uploadDataset(owner.agent, { price: '4.00' });
    await testApp.http.get(`/api/downloads/${id}`).expect(401);
    expect((await stranger.agent.get(`/api/downloads/${id}`).expect(404)).body.error).toBe(
      'Dataset not found',
    );
    await stranger.agent.get('/api/downloads/not-a-uuid').expect(404);
    expect(
      (await owner.agent.get(`/api/downloads/${id}`).query({ format: 'xml' }).expect(400)).body.error,
    ).toContain('format must be csv, json, parquet or xlsx');
  });

  it('downloads Parquet and Excel through the session as well', async () => {
    const owner = await createLoggedInUser(testApp);
    const id = await uploadDataset(owner.agent);
    const parquet = await owner.agent
      .get(`/api/downloads/${id}`)
      .query({ format: 'parquet' })
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    const bytes = parquet.body as Buffer;
    expect(bytes.subarray(0, 4).toString()).toBe('PAR1');
    expect(bytes.subarray(-4).toString()).toBe('PAR1');
    const gzipped = await owner.agent
      .get(`/api/downloads/${id}`)
      .query({ format: 'parquet', compression: 'gzip' })
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    const content = await readParquet(gzipped.body as Buffer);
    expect(new Set(content.codecs)).toEqual(new Set(['GZIP']));
    expect(content.rows).toEqual((await readParquet(bytes)).rows);
    const unknown = await owner.agent
      .get(`/api/downloads/${id}`)
      .query({ format: 'parquet', compression: 'brotli' })
      .expect(400);
    expect(unknown.body.message).toBe('compression must be snappy, zstd, gzip or none');
    const xlsx = await owner.agent.get(`/api/downloads/${id}`).query({ format: 'xlsx' }).expect(200);
    expect(xlsx.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
  });
});
