import { XMLParser } from 'fast-xml-parser';
import { formerEntitySetName } from '../../src/odata/odata-entity-set';
import { ODATA_RATE_LIMIT } from '../../src/odata/odata-rate-limit';
import { streamRateLimitKey } from '../../src/stream/api-key.guard';
import {
  createConnectorInstance,
  createDataset,
  createUserWithApiKey,
  grantAccess,
  TestColumn,
} from '../stream/stream.factory';
import { odataClient, ListeningApp, startListeningApp } from './odata.support';

const COLUMNS: TestColumn[] = [
  { name: 'id', label: 'ID', sqlType: 'integer', type: 'integer' },
  { name: 'big', label: 'Big', sqlType: 'bigint', type: 'integer' },
  { name: 'amount', label: 'Amount (€)', sqlType: 'numeric(12,2)', type: 'numeric' },
  { name: 'ratio', label: 'Ratio', sqlType: 'double precision', type: 'numeric' },
  { name: 'active', label: 'Active', sqlType: 'boolean', type: 'boolean' },
  { name: 'day', label: 'Day', sqlType: 'date', type: 'date' },
  { name: 'measured_at', label: 'Measured at', sqlType: 'timestamptz', type: 'timestamptz' },
  { name: 'local_at', label: 'Local at', sqlType: 'timestamp', type: 'timestamp' },
  { name: 'note', label: 'Note', sqlType: 'text', type: 'text' },
  { name: 'extra', label: 'Extra', sqlType: 'jsonb', type: 'jsonb' },
];

interface CsdlProperty {
  '@Name': string;
  '@Type': string;
  '@Nullable'?: string;
}
interface CsdlEntityType {
  '@Name': string;
  Key: { PropertyRef: { '@Name': string } };
  Property: CsdlProperty[];
}

function entityTypes(xml: string): CsdlEntityType[] {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    isArray: (name) => ['EntityType', 'Property', 'EntitySet'].includes(name),
  });
  const document = parser.parse(xml);
  return document['edmx:Edmx']['edmx:DataServices'].Schema.EntityType ?? [];
}

describe('OData service: documents and access', () => {
  let app: ListeningApp;
  let owner: { id: string; key: string };
  let holderKey: string;
  let strangerKey: string;
  let datasetId: string;
  let datasetSet: string;
  let instanceSet: string;
  let formerDatasetSet: string;
  let formerInstanceSet: string;

  beforeAll(async () => {
    app = await startListeningApp();
    const { dataSource } = app.testApp;
    const ownerWithKey = await createUserWithApiKey(dataSource);
    owner = { id: ownerWithKey.user.id, key: ownerWithKey.apiKey };
    const dataset = await createDataset(dataSource, {
      ownerId: owner.id,
      title: 'Météo 2024: stations',
      isPublic: false,
      withRowId: true,
      columns: COLUMNS,
      rows: [
        [
          1,
          '9007199254740993',
          '12.50',
          0.25,
          true,
          '2024-03-01',
          '2024-03-01T10:15:00Z',
          '2024-03-01 10:15',
          'a',
          '{"x":1}',
        ],
        [2, null, null, null, null, null, null, null, null, null],
      ],
    });
    datasetId = dataset.id;
    formerDatasetSet = formerEntitySetName({ kind: 'asset', id: dataset.id });
    [{ readable_name: datasetSet }] = await dataSource.query(
      `SELECT readable_name FROM assets WHERE id = $1`,
      [dataset.id],
    );
    const instance = await createConnectorInstance(dataSource, {
      ownerId: owner.id,
      tableSql: `SELECT gen_random_uuid() AS _run_id, now() AS _fetched_at, 'x'::text AS city`,
    });
    formerInstanceSet = formerEntitySetName({ kind: 'instance', id: instance.id });
    [{ readable_name: instanceSet }] = await dataSource.query(
      `SELECT readable_name FROM connector_instances WHERE id = $1`,
      [instance.id],
    );
    const holder = await createUserWithApiKey(dataSource);
    await grantAccess(dataSource, holder.user.id, dataset.id);
    holderKey = holder.apiKey;
    strangerKey = (await createUserWithApiKey(dataSource)).apiKey;
  });
  afterAll(async () => {
    await app.close();
  });

  it("names an entity set by the table's readable name, made from its title", () => {
    expect(datasetSet).toMatch(/^meteo_2024_stations_[0-9a-f]{4}$/);
    // Each name ends with digits of the table's own id, whoever else connects a 'Weather feed'.
    expect(instanceSet).toMatch(/^weather_feed_[0-9a-f]{4}$/);
  });

  it('still answers the former entity set names of saved queries, under the readable name', async () => {
    const dataset = await app.testApp.http
      .get(`/api/odata/${formerDatasetSet}`)
      .set('X-API-Key', holderKey)
      .expect(200);
    expect(dataset.body['@odata.context']).toBe(`${app.serviceRoot}/$metadata#${datasetSet}`);
    expect(dataset.body.value.map((row: { id: number }) => row.id)).toEqual([1, 2]);
    const count = await app.testApp.http
      .get(`/api/odata/${formerDatasetSet}/$count`)
      .set('X-API-Key', holderKey)
      .expect(200);
    expect(count.text).toBe('2');
    const instance = await app.testApp.http
      .get(`/api/odata/${formerInstanceSet}`)
      .set('X-API-Key', owner.key)
      .expect(200);
    expect(instance.body.value).toEqual([expect.objectContaining({ city: 'x' })]);
  });

  it('keeps the name when the dataset is renamed (a saved BI query picks its table by name)', async () => {
    const rename = (title: string) =>
      app.testApp.dataSource.query(`UPDATE assets SET title = $2 WHERE id = $1`, [datasetId, title]);
    await rename('Météo 2024: all stations');
    try {
      const response = await app.testApp.http.get('/api/odata').set('X-API-Key', owner.key).expect(200);
      expect(response.body.value[0]).toEqual({
        name: datasetSet,
        kind: 'EntitySet',
        url: datasetSet,
        title: 'Météo 2024: all stations',
      });
    } finally {
      await rename('Météo 2024: stations');
    }
  });

  it('lists the held datasets and owned connector tables in the service document', async () => {
    const response = await app.testApp.http.get('/api/odata').set('X-API-Key', owner.key).expect(200);
    expect(response.headers['odata-version']).toBe('4.0');
    expect(response.body['@odata.context']).toBe(`${app.serviceRoot}/$metadata`);
    expect(response.body.value).toEqual([
      { name: datasetSet, kind: 'EntitySet', url: datasetSet, title: 'Météo 2024: stations' },
      { name: instanceSet, kind: 'EntitySet', url: instanceSet, title: 'Weather feed' },
    ]);
    const holder = await app.testApp.http.get('/api/odata/').query({ api_key: holderKey }).expect(200);
    expect(holder.body.value.map((set: { name: string }) => set.name)).toEqual([datasetSet]);
  });

  it('describes each table in $metadata with EDM types mapped from Postgres and a key', async () => {
    const response = await app.testApp.http
      .get('/api/odata/$metadata')
      .set('X-API-Key', owner.key)
      .expect(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    const [dataset, instance] = entityTypes(response.text);
    expect(dataset['@Name']).toBe(datasetSet);
    expect(dataset.Key.PropertyRef['@Name']).toBe('_row_id');
    expect(dataset.Property).toEqual([
      { '@Name': '_row_id', '@Type': 'Edm.Int64', '@Nullable': 'false' },
      { '@Name': 'id', '@Type': 'Edm.Int32' },
      { '@Name': 'big', '@Type': 'Edm.Int64' },
      { '@Name': 'amount', '@Type': 'Edm.Decimal', '@Scale': 'variable' },
      { '@Name': 'ratio', '@Type': 'Edm.Double' },
      { '@Name': 'active', '@Type': 'Edm.Boolean' },
      { '@Name': 'day', '@Type': 'Edm.Date' },
      { '@Name': 'measured_at', '@Type': 'Edm.DateTimeOffset' },
      { '@Name': 'local_at', '@Type': 'Edm.DateTimeOffset' },
      { '@Name': 'note', '@Type': 'Edm.String' },
      { '@Name': 'extra', '@Type': 'Edm.String' },
    ]);
    expect(instance.Key.PropertyRef['@Name']).toBe('_row_number');
    expect(instance.Property.map((property) => [property['@Name'], property['@Type']])).toEqual([
      ['_row_number', 'Edm.Int64'],
      ['_run_id', 'Edm.Guid'],
      ['_fetched_at', 'Edm.DateTimeOffset'],
      ['city', 'Edm.String'],
    ]);
  });

  it('reads rows with the OData client in their EDM JSON forms', async () => {
    const rows = await odataClient(app.serviceRoot, holderKey).getEntitySet(datasetSet).query();
    expect(rows).toEqual([
      {
        _row_id: 1,
        id: 1,
        big: 9007199254740992,
        amount: 12.5,
        ratio: 0.25,
        active: true,
        day: '2024-03-01',
        measured_at: '2024-03-01T10:15:00+00:00',
        local_at: '2024-03-01T10:15:00+00:00',
        note: 'a',
        extra: '{"x": 1}',
      },
      {
        _row_id: 2,
        id: 2,
        big: null,
        amount: null,
        ratio: null,
        active: null,
        day: null,
        measured_at: null,
        local_at: null,
        note: null,
        extra: null,
      },
    ]);
    const instanceRows = await odataClient(app.serviceRoot, owner.key).getEntitySet(instanceSet).query();
    expect(instanceRows).toEqual([
      { _row_number: 1, _run_id: expect.any(String), _fetched_at: expect.any(String), city: 'x' },
    ]);
  });

  it('shows a key that holds nothing neither the dataset nor its metadata, and answers 404 for it', async () => {
    const documentResponse = await app.testApp.http
      .get('/api/odata')
      .set('X-API-Key', strangerKey)
      .expect(200);
    expect(documentResponse.body.value).toEqual([]);
    const metadata = await app.testApp.http
      .get('/api/odata/$metadata')
      .set('X-API-Key', strangerKey)
      .expect(200);
    expect(metadata.text).not.toContain(datasetSet);
    expect(metadata.text).not.toContain('measured_at');
    expect(entityTypes(metadata.text)).toEqual([]);
    for (const path of [
      datasetSet,
      `${datasetSet}/$count`,
      instanceSet,
      formerDatasetSet,
      formerInstanceSet,
    ]) {
      const response = await app.testApp.http
        .get(`/api/odata/${path}`)
        .set('X-API-Key', strangerKey)
        .expect(404);
      expect(response.body).toEqual({
        error: { code: 'NotFound', message: `No entity set named ${path.split('/')[0]}` },
      });
    }
    // The holder may read the dataset but not the owner's connector table.
    await app.testApp.http.get(`/api/odata/${instanceSet}`).set('X-API-Key', holderKey).expect(404);
  });

  it('answers a missing or wrong key with 401 in the OData error shape', async () => {
    const missing = await app.testApp.http.get('/api/odata').expect(401);
    expect(missing.body).toEqual({
      error: {
        code: 'Unauthorized',
        message: 'An API key is required (api_key parameter or X-API-Key header)',
      },
    });
    const wrong = await app.testApp.http.get('/api/odata/$metadata').query({ api_key: 'nope' }).expect(401);
    expect(wrong.body).toEqual({ error: { code: 'Unauthorized', message: 'Invalid API key' } });
  });

  it('accepts the key repeated with one value, as a tool adding its stored key to a next link sends it', async () => {
    await app.testApp.http
      .get(`/api/odata/${datasetSet}?api_key=${holderKey}&api_key=${holderKey}`)
      .expect(200);
    await app.testApp.http.get(`/api/odata/${datasetSet}?api_key=${holderKey}&api_key=other`).expect(401);
  });

  it('rate-limits the feed per key on a budget of its own, answering 429 in the OData error shape', async () => {
    const { apiKey } = await createUserWithApiKey(app.testApp.dataSource);
    await app.testApp.dataSource.query(
      `INSERT INTO rate_limit_buckets (key, window_start, hits) VALUES ($1, now(), $2)`,
      [streamRateLimitKey(apiKey, ODATA_RATE_LIMIT.bucket), ODATA_RATE_LIMIT.rule.limit],
    );
    const refused = await app.testApp.http.get('/api/odata').set('X-API-Key', apiKey).expect(429);
    expect(refused.headers['retry-after']).toMatch(/^[0-9]+$/);
    expect(refused.body).toEqual({
      error: {
        code: 'TooManyRequests',
        message: 'Too many stream requests for this API key, please try again in a minute',
      },
    });
    // The stream links keep their own budget.
    await app.testApp.http.get('/api/stream/data').set('X-API-Key', apiKey).expect(200);
  });
});
