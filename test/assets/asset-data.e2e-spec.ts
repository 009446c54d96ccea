import { randomUUID } from 'node:crypto';
import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser, TestUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

type Agent = TestAgent<Test>;

/** 25 rows: id 1..25, score descending from 250, a text name, some NULL notes. */
function sampleCsv(): string {
  const lines = ['id,score,name,note'];
  for (let id = 1; id <= 25; id++)
    lines.push(`${id},${260 - id * 10},name ${String(id).padStart(2, '0')},${id % 5 === 0 ? '' : `n${id}`}`);
  return lines.join('\n') + '\n';
}

describe('GET assets/{id}/data: sample preview and paged rows', () => {
  let testApp: TestApp;
  let owner: { user: TestUser; agent: Agent };
  let buyer: { user: TestUser; agent: Agent };
  let stranger: { user: TestUser; agent: Agent };
  let publicId: string;
  let privateId: string;

  beforeAll(async () => {
    testApp = await createTestApp();
    owner = await createLoggedInUser(testApp);
    buyer = await createLoggedInUser(testApp);
    stranger = await createLoggedInUser(testApp);
    publicId = await uploadDataset(owner.agent, { title: 'Scores', price: '3.50' }, sampleCsv());
    privateId = await uploadDataset(
      owner.agent,
      { title: 'Private scores', is_public: 'false' },
      sampleCsv(),
    );
    await buyer.agent
      .post('/api/access/grant')
      .set('Origin', TEST_ORIGIN)
      .send({ assetId: publicId })
      .expect(200);
  });
  afterAll(() => testApp.close());

  it('shows visitors and users without access at most 10 sample rows, whatever they ask for', async () => {
    for (const agent of [testApp.http, stranger.agent]) {
      const response = await agent.get(`/api/assets/${publicId}/data`).expect(200);
      expect(response.body).toMatchObject({ sample: true, total: 25, limit: 10, offset: 0 });
      expect(response.body.rows).toHaveLength(10);
      expect(response.body.rows[0]).toEqual({ id: 1, score: 250, name: 'name 01', note: 'n1' });
      expect(response.body.columns.map((column: { name: string }) => column.name)).toEqual([
        'id',
        'score',
        'name',
        'note',
      ]);
      const paged = await agent.get(`/api/assets/${publicId}/data?limit=1000&offset=10&sort=-id`).expect(200);
      expect(paged.body.rows.map((row: { id: number }) => row.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(paged.body.sample).toBe(true);
    }
  });

  it('lets a sample ask for fewer than 10 rows', async () => {
    const response = await testApp.http.get(`/api/assets/${publicId}/data?limit=3`).expect(200);
    expect(response.body.rows).toHaveLength(3);
  });

  it('pages through all rows for the owner and the buyer', async () => {
    for (const agent of [owner.agent, buyer.agent]) {
      const first = await agent.get(`/api/assets/${publicId}/data?limit=20`).expect(200);
      expect(first.body).toMatchObject({ sample: false, total: 25, limit: 20, offset: 0 });
      expect(first.body.rows).toHaveLength(20);
      const second = await agent.get(`/api/assets/${publicId}/data?limit=20&offset=20`).expect(200);
      expect(second.body.rows.map((row: { id: number }) => row.id)).toEqual([21, 22, 23, 24, 25]);
    }
  });

  it('sorts by a real column in either direction, NULLs last', async () => {
    const ascending = await owner.agent.get(`/api/assets/${publicId}/data?sort=score&limit=3`).expect(200);
    expect(ascending.body.rows.map((row: { score: number }) => row.score)).toEqual([10, 20, 30]);
    const descending = await owner.agent
      .get(`/api/assets/${publicId}/data?sort=score&direction=desc&limit=3`)
      .expect(200);
    expect(descending.body.rows.map((row: { score: number }) => row.score)).toEqual([250, 240, 230]);
    const shorthand = await owner.agent.get(`/api/assets/${publicId}/data?sort=-name&limit=2`).expect(200);
    expect(shorthand.body.rows.map((row: { name: string }) => row.name)).toEqual(['name 25', 'name 24']);
    const nulls = await owner.agent.get(`/api/assets/${publicId}/data?sort=note&limit=25`).expect(200);
    expect(nulls.body.rows.slice(-5).map((row: { note: string | null }) => row.note)).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it('keeps numbers exact that a JavaScript number would round, and sorts them by value', async () => {
    const csv = [
      'account,amount',
      '9007199254740993,12345678901234567.891',
      '42,0.1',
      '-922337203685477580,-3.5',
      '9007199254740991,123456789012345',
    ].join('\n');
    const wideId = await uploadDataset(owner.agent, { title: 'Wide numbers' }, `${csv}\n`);
    const response = await owner.agent.get(`/api/assets/${wideId}/data`).expect(200);
    expect(response.body.columns.map((column: { type: string }) => column.type)).toEqual([
      'integer',
      'numeric',
    ]);
    expect(response.body.rows).toEqual([
      { account: '9007199254740993', amount: '12345678901234567.891' },
      { account: 42, amount: 0.1 },
      { account: '-922337203685477580', amount: -3.5 },
      { account: 9007199254740991, amount: 123456789012345 },
    ]);
    const sorted = await owner.agent.get(`/api/assets/${wideId}/data?sort=-account`).expect(200);
    expect(sorted.body.rows.map((row: { account: unknown }) => row.account)).toEqual([
      '9007199254740993',
      9007199254740991,
      42,
      '-922337203685477580',
    ]);
  });

  it('refuses to sort by anything but a column of the dataset', async () => {
    const response = await owner.agent
      .get(`/api/assets/${publicId}/data?sort=${encodeURIComponent('id; DROP TABLE assets')}`)
      .expect(400);
    expect(response.body.error).toBe('Cannot sort by "id; DROP TABLE assets": no such column');
    await owner.agent.get(`/api/assets/${publicId}/data?sort=_row_id`).expect(400);
  });

  it.each(['limit=1001', 'limit=0', 'offset=-5', 'direction=sideways'])(
    'rejects %s with 400',
    async (query) => {
      await owner.agent.get(`/api/assets/${publicId}/data?${query}`).expect(400);
    },
  );

  it('answers 404 for a private dataset to visitors and users without access, and for unknown ids', async () => {
    await testApp.http.get(`/api/assets/${privateId}/data`).expect(404);
    await stranger.agent.get(`/api/assets/${privateId}/data`).expect(404);
    await buyer.agent.get(`/api/assets/${privateId}/data`).expect(404);
    await testApp.http.get(`/api/assets/${randomUUID()}/data`).expect(404);
    await testApp.http.get(`/api/assets/nope/data`).expect(404);
    const own = await owner.agent.get(`/api/assets/${privateId}/data`).expect(200);
    expect(own.body.sample).toBe(false);
  });

  it('goes back to the sample once access is removed', async () => {
    const other = await createLoggedInUser(testApp);
    await other.agent
      .post('/api/access/grant')
      .set('Origin', TEST_ORIGIN)
      .send({ assetId: publicId })
      .expect(200);
    expect((await other.agent.get(`/api/assets/${publicId}/data`).expect(200)).body.sample).toBe(false);
    await other.agent
      .post('/api/access/remove')
      .set('Origin', TEST_ORIGIN)
      .send({ assetId: publicId })
      .expect(200);
    expect((await other.agent.get(`/api/assets/${publicId}/data`).expect(200)).body.sample).toBe(true);
  });
});

describe('GET assets/table/{output_table_name}: a connector instance table, for its owner only', () => {
  let testApp: TestApp;
  let owner: { user: TestUser; agent: Agent };
  let stranger: { user: TestUser; agent: Agent };
  const withFetchedAt = `ci_${randomUUID().replace(/-/g, '')}`;
  const withoutFetchedAt = `ci_${randomUUID().replace(/-/g, '')}`;
  const notRunYet = `ci_${randomUUID().replace(/-/g, '')}`;

  beforeAll(async () => {
    testApp = await createTestApp();
    owner = await createLoggedInUser(testApp);
    stranger = await createLoggedInUser(testApp);
    const [connector] = await testApp.dataSource.query(
      `INSERT INTO connectors (title, fetch_url_template) VALUES ('Weather API', 'https://example.test/{{city}}') RETURNING id`,
    );
    for (const table of [withFetchedAt, withoutFetchedAt, notRunYet]) {
      await testApp.dataSource.query(
        `INSERT INTO connector_instances (connector_id, owner_id, title, output_table_name) VALUES ($1, $2, 'Weather', $3)`,
        [connector.id, owner.user.id, table],
      );
    }
    await testApp.dataSource.query(
      `CREATE TABLE data."${withFetchedAt}" (_run_id uuid, _fetched_at timestamptz, city text, temperature numeric, extra jsonb)`,
    );
    await testApp.dataSource.query(
      `INSERT INTO data."${withFetchedAt}" SELECT gen_random_uuid(), timestamptz '2024-01-01' + n * interval '1 minute', 'City ' || n, n / 2.0, jsonb_build_object('n', n)
         FROM generate_series(1, 150) AS n`,
    );
    await testApp.dataSource.query(`CREATE TABLE data."${withoutFetchedAt}" (city text)`);
    await testApp.dataSource.query(
      `INSERT INTO data."${withoutFetchedAt}" SELECT 'City ' || n FROM generate_series(1, 120) AS n`,
    );
  });
  afterAll(() => testApp.close());

  it('gives the owner the latest 100 rows, newest first by _fetched_at, internal columns last', async () => {
    const response = await owner.agent.get(`/api/assets/table/${withFetchedAt}`).expect(200);
    expect(response.body.rows).toHaveLength(100);
    expect(response.body.rows[0]).toMatchObject({ city: 'City 150', temperature: 75, extra: { n: 150 } });
    expect(response.body.rows[99].city).toBe('City 51');
    expect(response.body.columns).toEqual([
      { name: 'city', type: 'text' },
      { name: 'temperature', type: 'numeric' },
      { name: 'extra', type: 'jsonb' },
      { name: '_run_id', type: 'text' },
      { name: '_fetched_at', type: 'timestamptz' },
    ]);
    expect(Object.keys(response.body.rows[0])).toEqual([
      'city',
      'temperature',
      'extra',
      '_run_id',
      '_fetched_at',
    ]);
  });

  it('keeps wide bigint and numeric values exact in the connector table preview', async () => {
    const table = `ci_${randomUUID().replace(/-/g, '')}`;
    await testApp.dataSource.query(
      `INSERT INTO connector_instances (connector_id, owner_id, title, output_table_name)
         SELECT connector_id, owner_id, 'Wide', $1 FROM connector_instances WHERE output_table_name = $2`,
      [table, withFetchedAt],
    );
    await testApp.dataSource.query(
      `CREATE TABLE data."${table}" (id bigint, total numeric, ratio double precision)`,
    );
    await testApp.dataSource.query(
      `INSERT INTO data."${table}" VALUES (9223372036854775807, 0.12345678901234567890, 0.5), (7, 2.25, 1e300), (8, 1e-320, 0)`,
    );
    const response = await owner.agent.get(`/api/assets/table/${table}`).expect(200);
    expect(response.body.rows).toEqual([
      { id: '9223372036854775807', total: '0.12345678901234567890', ratio: 0.5 },
      { id: 7, total: 2.25, ratio: 1e300 },
      { id: 8, total: `0.${'0'.repeat(319)}1`, ratio: 0 },
    ]);
  });

  it('still caps the rows at 100 for a table without _fetched_at', async () => {
    const response = await owner.agent.get(`/api/assets/table/${withoutFetchedAt}`).expect(200);
    expect(response.body.rows).toHaveLength(100);
  });

  it('answers an empty table for an instance that has not run yet', async () => {
    const response = await owner.agent.get(`/api/assets/table/${notRunYet}`).expect(200);
    expect(response.body).toEqual({ columns: [], rows: [] });
  });

  it('answers 404 to a visitor and to another user, like an unknown table', async () => {
    const unknown = await owner.agent.get('/api/assets/table/ci_does_not_exist').expect(404);
    const visitor = await testApp.http.get(`/api/assets/table/${withFetchedAt}`).expect(404);
    const other = await stranger.agent.get(`/api/assets/table/${withFetchedAt}`).expect(404);
    expect(visitor.body).toEqual(unknown.body);
    expect(other.body).toEqual(unknown.body);
  });

  it('never reads a dataset table or another schema through this call', async () => {
    const dataset = await uploadDataset(owner.agent, { title: 'Not a connector table' });
    const [asset] = await testApp.dataSource.query(`SELECT table_name FROM assets WHERE id = $1`, [dataset]);
    await owner.agent.get(`/api/assets/table/${asset.table_name}`).expect(404);
    await owner.agent.get(`/api/assets/table/${encodeURIComponent('users')}`).expect(404);
    await owner.agent.get(`/api/assets/table/${encodeURIComponent('x"; DROP TABLE users; --')}`).expect(404);
  });
});
