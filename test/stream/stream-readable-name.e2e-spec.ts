import { createTestApp, TestApp } from '../support/test-app';
import {
  createConnectorInstance,
  createDataset,
  createUserWithApiKey,
  grantAccess,
  TestColumn,
} from './stream.factory';

const COLUMNS: TestColumn[] = [
  { name: 'city', label: 'City', sqlType: 'text', type: 'text' },
  { name: 'total', label: 'Total', sqlType: 'integer', type: 'integer' },
];

/** Stream links by a table's readable name, and the links from before it that keep working. */
describe('stream links by readable table name', () => {
  let testApp: TestApp;
  let ownerKey: string;
  let holderKey: string;
  let strangerKey: string;
  let datasetId: string;
  let datasetName: string;
  let instanceId: string;
  let instanceName: string;

  const readableNameOf = async (table: 'assets' | 'connector_instances', id: string) =>
    (await testApp.dataSource.query(`SELECT readable_name FROM ${table} WHERE id = $1`, [id]))[0]
      .readable_name as string;

  beforeAll(async () => {
    testApp = await createTestApp();
    const owner = await createUserWithApiKey(testApp.dataSource);
    ownerKey = owner.apiKey;
    const dataset = await createDataset(testApp.dataSource, {
      ownerId: owner.user.id,
      title: 'Regional totals',
      isPublic: false,
      columns: COLUMNS,
      rows: [
        ['Lima', 3],
        ['Oslo', 5],
      ],
    });
    datasetId = dataset.id;
    datasetName = await readableNameOf('assets', dataset.id);
    const instance = await createConnectorInstance(testApp.dataSource, {
      ownerId: owner.user.id,
      tableSql: `SELECT 'Quito'::text AS city`,
    });
    instanceId = instance.id;
    instanceName = await readableNameOf('connector_instances', instance.id);
    const holder = await createUserWithApiKey(testApp.dataSource);
    await grantAccess(testApp.dataSource, holder.user.id, dataset.id);
    holderKey = holder.apiKey;
    strangerKey = (await createUserWithApiKey(testApp.dataSource)).apiKey;
  });
  afterAll(() => testApp.close());

  const stream = (reference: string, apiKey: string, format?: string) =>
    testApp.http
      .get(`/api/stream/data/${reference}`)
      .query({ api_key: apiKey, ...(format ? { format } : {}) });

  it('streams a dataset by its readable name, as by its id', async () => {
    expect(datasetName).toMatch(/^regional_totals_[0-9a-f]{4}$/);
    const byName = await stream(datasetName, holderKey).expect(200);
    const byId = await stream(datasetId, holderKey).expect(200);
    expect(JSON.parse(byName.text)).toEqual([
      { City: 'Lima', Total: 3 },
      { City: 'Oslo', Total: 5 },
    ]);
    expect(byName.text).toBe(byId.text);
  });

  it('names the downloaded file after the readable name', async () => {
    const csv = await stream(datasetId, ownerKey, 'csv').expect(200);
    expect(csv.headers['content-disposition']).toBe(`inline; filename="${datasetName}.csv"`);
    const json = await stream(datasetName, ownerKey).expect(200);
    expect(json.headers['content-disposition']).toBe(`inline; filename="${datasetName}.json"`);
    const lines = await stream(`instance-${instanceId}`, ownerKey, 'ndjson').expect(200);
    expect(lines.headers['content-disposition']).toBe(`inline; filename="${instanceName}.jsonl"`);
  });

  it('streams a connector table by its readable name, and by the former instance-<id> and bare id', async () => {
    for (const reference of [instanceName, `instance-${instanceId}`, instanceId]) {
      const response = await stream(reference, ownerKey).expect(200);
      expect(JSON.parse(response.text)).toEqual([{ city: 'Quito' }]);
    }
  });

  it('answers 404 for a name the key may not read, exactly as for a name that names nothing', async () => {
    const forbidden = await stream(datasetName, strangerKey).expect(404);
    const missing = await stream('no_such_table_anywhere', strangerKey).expect(404);
    expect(forbidden.body).toEqual(missing.body);
    await stream(instanceName, holderKey).expect(404);
  });
});
