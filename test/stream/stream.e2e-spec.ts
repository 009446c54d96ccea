import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createUser, loginAs } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { streamRateLimitKey, STREAM_RATE_LIMIT } from '../../src/stream/api-key.guard';
import {
  createConnectorInstance,
  createDataset,
  createUserWithApiKey,
  grantAccess,
  newApiKey,
  parseCsv,
  setApiKey,
  TestColumn,
} from './stream.factory';

const TRICKY_TEXT = 'He said "hi", then left \\ back\\\\slash\nsecond line\r\nthird, ünïcödé ✓ 😀 \\N\ttab';

const TYPED_COLUMNS: TestColumn[] = [
  { name: 'id', label: 'ID', sqlType: 'integer', type: 'integer' },
  { name: 'amount', label: 'Amount (€)', sqlType: 'numeric(12,2)', type: 'numeric' },
  { name: 'active', label: 'Active', sqlType: 'boolean', type: 'boolean' },
  { name: 'day', label: 'Day', sqlType: 'date', type: 'date' },
  { name: 'measured_at', label: 'Measured at', sqlType: 'timestamptz', type: 'timestamptz' },
  { name: 'note', label: 'Note, "free" text', sqlType: 'text', type: 'text' },
];

const TYPED_ROWS = [
  [1, '12.50', true, '2024-03-01', '2024-03-01T10:15:00Z', TRICKY_TEXT],
  [2, '-0.75', false, '2024-12-31', '2024-12-31T23:59:59.5Z', ''],
  [3, null, null, null, null, null],
];

/** Opens a real connection, reads the first chunk of the answer and closes the socket. */
async function readFirstBytesThenHangUp(testApp: TestApp, path: string): Promise<void> {
  const server = createServer(testApp.app.getHttpAdapter().getInstance());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve, reject) => {
      const request = get({ host: '127.0.0.1', port, path }, (response) => {
        expect(response.statusCode).toBe(200);
        response.once('data', () => {
          request.destroy();
          resolve();
        });
      });
      request.on('error', (error) =>
        (error as { code?: string }).code === 'ECONNRESET' ? undefined : reject(error),
      );
    });
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

const NUMBERED_COLUMNS: TestColumn[] = [{ name: 'n', label: 'Number', sqlType: 'integer', type: 'integer' }];

describe('stream API', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(async () => {
    await testApp.close();
  });

  async function ownerWithTypedDataset() {
    const { user, apiKey } = await createUserWithApiKey(testApp.dataSource);
    const dataset = await createDataset(testApp.dataSource, {
      ownerId: user.id,
      title: 'Typed sample',
      columns: TYPED_COLUMNS,
      rows: TYPED_ROWS,
    });
    return { user, apiKey, dataset };
  }

  describe('GET stream/data/{assetId}', () => {
    it('streams every row as a JSON array of flat objects keyed by the column labels, with real types', async () => {
      const { apiKey, dataset } = await ownerWithTypedDataset();
      const response = await testApp.http
        .get(`/api/stream/data/${dataset.id}`)
        .query({ api_key: apiKey })
        .expect(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(JSON.parse(response.text)).toEqual([
        {
          ID: 1,
          'Amount (€)': 12.5,
          Active: true,
          Day: '2024-03-01',
          'Measured at': '2024-03-01T10:15:00+00:00',
          'Note, "free" text': TRICKY_TEXT,
        },
        {
          ID: 2,
          'Amount (€)': -0.75,
          Active: false,
          Day: '2024-12-31',
          'Measured at': '2024-12-31T23:59:59.5+00:00',
          'Note, "free" text': '',
        },
        {
          ID: 3,
          'Amount (€)': null,
          Active: null,
          Day: null,
          'Measured at': null,
          'Note, "free" text': null,
        },
      ]);
    });

    it('streams CSV with the original labels as header and RFC 4180 quoting that round-trips any text', async () => {
      const { apiKey, dataset } = await ownerWithTypedDataset();
      const response = await testApp.http
        .get(`/api/stream/data/${dataset.id}`)
        .query({ api_key: apiKey, format: 'csv' })
        .expect(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(parseCsv(response.text)).toEqual([
        ['ID', 'Amount (€)', 'Active', 'Day', 'Measured at', 'Note, "free" text'],
        ['1', '12.50', 'true', '2024-03-01', '2024-03-01T10:15:00+00:00', TRICKY_TEXT],
        ['2', '-0.75', 'false', '2024-12-31', '2024-12-31T23:59:59.5+00:00', ''],
        ['3', null, null, null, null, null],
      ]);
    });

    it('pages with limit and offset in both formats, in insertion order', async () => {
      const { user, apiKey } = await createUserWithApiKey(testApp.dataSource);
      const dataset = await createDataset(testApp.dataSource, {
        ownerId: user.id,
        columns: NUMBERED_COLUMNS,
        rowsSql: 'SELECT generate_series(1, 10)',
      });
      const json = await testApp.http
        .get(`/api/stream/data/${dataset.id}`)
        .query({ api_key: apiKey, limit: 3, offset: 4 })
        .expect(200);
      expect(JSON.parse(json.text)).toEqual([{ Number: 5 }, { Number: 6 }, { Number: 7 }]);
      const csv = await testApp.http
        .get(`/api/stream/data/${dataset.id}`)
        .query({ api_key: apiKey, format: 'csv', limit: 2, offset: 8 })
        .expect(200);
      expect(csv.text).toBe('Number\n9\n10\n');
      const past = await testApp.http
        .get(`/api/stream/data/${dataset.id}`)
        .query({ api_key: apiKey, offset: 50 })
        .expect(200);
      expect(JSON.parse(past.text)).toEqual([]);
    });

    it('streams a large table completely (back-pressure, no buffering limits)', async () => {
      const { user, apiKey } = await createUserWithApiKey(testApp.dataSource);
      const dataset = await createDataset(testApp.dataSource, {
        ownerId: user.id,
        columns: [...NUMBERED_COLUMNS, { name: 'label', label: 'Label', sqlType: 'text', type: 'text' }],
        rowsSql: `SELECT n, 'row ' || n || repeat('x', 50) FROM generate_series(1, 60000) n`,
      });
      const response = await testApp.http
        .get(`/api/stream/data/${dataset.id}`)
        .query({ api_key: apiKey })
        .expect(200);
      const rows = JSON.parse(response.text) as Array<{ Number: number }>;
      expect(rows).toHaveLength(60000);
      expect(rows[59999].Number).toBe(60000);
    });

    it('accepts the key in the X-API-Key header instead of the URL', async () => {
      const { apiKey, dataset } = await ownerWithTypedDataset();
      const response = await testApp.http
        .get(`/api/stream/data/${dataset.id}`)
        .set('X-API-Key', apiKey)
        .expect(200);
      expect(JSON.parse(response.text)).toHaveLength(3);
    });

    it('answers 401 without a key and with a wrong key', async () => {
      const { dataset } = await ownerWithTypedDataset();
      const missing = await testApp.http.get(`/api/stream/data/${dataset.id}`).expect(401);
      expect(missing.body.statusCode).toBe(401);
      await testApp.http.get(`/api/stream/data/${dataset.id}`).query({ api_key: newApiKey() }).expect(401);
      await testApp.http.get(`/api/stream/data/${dataset.id}`).set('X-API-Key', 'not-a-key').expect(401);
      await testApp.http.get('/api/stream/data').query({ api_key: '' }).expect(401);
    });

    it('refuses the key of a user whose e-mail is not verified', async () => {
      const { apiKey } = await createUserWithApiKey(testApp.dataSource, { verified: false });
      await testApp.http.get('/api/stream/data').query({ api_key: apiKey }).expect(401);
    });

    it('stops accepting a rotated key at once while the new key works', async () => {
      const { user, apiKey, dataset } = await ownerWithTypedDataset();
      await testApp.http.get(`/api/stream/data/${dataset.id}`).query({ api_key: apiKey }).expect(200);
      const newKey = await setApiKey(testApp.dataSource, user.id);
      await testApp.http.get(`/api/stream/data/${dataset.id}`).query({ api_key: apiKey }).expect(401);
      await testApp.http.get(`/api/stream/data/${dataset.id}`).query({ api_key: newKey }).expect(200);
    });

    it('stops accepting the old key once the owner generates a new one with POST dev/apikey', async () => {
      const { user, apiKey, dataset } = await ownerWithTypedDataset();
      const agent = await loginAs(testApp, user);
      const generated = await agent
        .post('/api/dev/apikey')
        .set('Origin', TEST_ORIGIN)
        .send({ email: user.email })
        .expect(200);
      const newKey = generated.body.api_key as string;
      expect(newKey).not.toBe(apiKey);
      await testApp.http.get(`/api/stream/data/${dataset.id}`).query({ api_key: apiKey }).expect(401);
      await testApp.http.get(`/api/stream/data/${dataset.id}`).set('X-API-Key', newKey).expect(200);
    });

    it('answers 404 for a private dataset of another user, exactly like a missing one', async () => {
      const { user: stranger } = await createUserWithApiKey(testApp.dataSource);
      const secret = await createDataset(testApp.dataSource, {
        ownerId: stranger.id,
        isPublic: false,
        columns: NUMBERED_COLUMNS,
        rows: [[1]],
      });
      const { apiKey } = await createUserWithApiKey(testApp.dataSource);
      const forbidden = await testApp.http
        .get(`/api/stream/data/${secret.id}`)
        .query({ api_key: apiKey })
        .expect(404);
      const missing = await testApp.http
        .get('/api/stream/data/00000000-0000-4000-8000-000000000000')
        .query({ api_key: apiKey })
        .expect(404);
      expect(forbidden.body).toEqual(missing.body);
      await testApp.http.get('/api/stream/data/not-an-id').query({ api_key: apiKey }).expect(404);
    });

    it('streams a public dataset only after the user got access (grant), and 404 before', async () => {
      const { user: owner } = await createUserWithApiKey(testApp.dataSource);
      const open = await createDataset(testApp.dataSource, {
        ownerId: owner.id,
        columns: NUMBERED_COLUMNS,
        rows: [[7]],
      });
      const { user, apiKey } = await createUserWithApiKey(testApp.dataSource);
      await testApp.http.get(`/api/stream/data/${open.id}`).query({ api_key: apiKey }).expect(404);
      await grantAccess(testApp.dataSource, user.id, open.id);
      const response = await testApp.http
        .get(`/api/stream/data/${open.id}`)
        .query({ api_key: apiKey })
        .expect(200);
      expect(JSON.parse(response.text)).toEqual([{ Number: 7 }]);
    });

    it('rejects an unknown format and a negative limit with 400', async () => {
      const { apiKey, dataset } = await ownerWithTypedDataset();
      await testApp.http
        .get(`/api/stream/data/${dataset.id}`)
        .query({ api_key: apiKey, format: 'xml' })
        .expect(400);
      await testApp.http
        .get(`/api/stream/data/${dataset.id}`)
        .query({ api_key: apiKey, limit: -1 })
        .expect(400);
      await testApp.http
        .get(`/api/stream/data/${dataset.id}`)
        .query({ api_key: apiKey, offset: 'x' })
        .expect(400);
    });

    it('rate-limits stream calls per key with 429', async () => {
      const { apiKey, dataset } = await ownerWithTypedDataset();
      await testApp.dataSource.query(
        `INSERT INTO rate_limit_buckets (key, window_start, hits) VALUES ($1, now(), $2)`,
        [streamRateLimitKey(apiKey), STREAM_RATE_LIMIT.limit],
      );
      const response = await testApp.http
        .get(`/api/stream/data/${dataset.id}`)
        .query({ api_key: apiKey })
        .expect(429);
      expect(response.body.error).toMatch(/too many/i);
      expect(JSON.stringify(response.body)).not.toContain(apiKey);
    });

    it('ends the database query when the client hangs up mid-stream', async () => {
      const { user, apiKey } = await createUserWithApiKey(testApp.dataSource);
      const dataset = await createDataset(testApp.dataSource, {
        ownerId: user.id,
        columns: [...NUMBERED_COLUMNS, { name: 'label', label: 'Label', sqlType: 'text', type: 'text' }],
        rowsSql: `SELECT n, repeat('y', 200) FROM generate_series(1, 200000) n`,
      });
      await readFirstBytesThenHangUp(testApp, `/api/stream/data/${dataset.id}?format=csv&api_key=${apiKey}`);
      const copyStillRunning = async () => {
        const [row] = await testApp.dataSource.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'COPY%' AND query LIKE $1 AND pid <> pg_backend_pid()`,
          [`%${dataset.tableName}%`],
        );
        return row.n as number;
      };
      for (let attempt = 0; attempt < 50 && (await copyStillRunning()) > 0; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await copyStillRunning()).toBe(0);
      // The app keeps serving streams afterwards.
      await testApp.http
        .get(`/api/stream/data/${dataset.id}`)
        .query({ api_key: apiKey, limit: 1 })
        .expect(200);
    });
  });

  describe('connector instance tables', () => {
    it('streams the owner’s instance table at stream/data/instance-{instanceId} (and by the bare instance id)', async () => {
      const { user, apiKey } = await createUserWithApiKey(testApp.dataSource);
      const instance = await createConnectorInstance(testApp.dataSource, {
        ownerId: user.id,
        tableSql: `SELECT * FROM (VALUES (1, 'Berlin', '{"t": 21.5}'::jsonb), (2, 'Oslo', '{"t": -3}'::jsonb)) v(id, city, reading)`,
      });
      const response = await testApp.http
        .get(`/api/stream/data/instance-${instance.id}`)
        .query({ api_key: apiKey })
        .expect(200);
      expect(JSON.parse(response.text)).toEqual([
        { id: 1, city: 'Berlin', reading: { t: 21.5 } },
        { id: 2, city: 'Oslo', reading: { t: -3 } },
      ]);
      const csv = await testApp.http
        .get(`/api/stream/data/${instance.id}`)
        .query({ api_key: apiKey, format: 'csv' })
        .expect(200);
      expect(parseCsv(csv.text)).toEqual([
        ['id', 'city', 'reading'],
        ['1', 'Berlin', '{"t": 21.5}'],
        ['2', 'Oslo', '{"t": -3}'],
      ]);
    });

    it('answers an empty result for an instance that has not run yet', async () => {
      const { user, apiKey } = await createUserWithApiKey(testApp.dataSource);
      const instance = await createConnectorInstance(testApp.dataSource, { ownerId: user.id });
      const response = await testApp.http
        .get(`/api/stream/data/instance-${instance.id}`)
        .query({ api_key: apiKey })
        .expect(200);
      expect(JSON.parse(response.text)).toEqual([]);
    });

    it('answers 404 for another user’s connector instance', async () => {
      const owner = await createUser(testApp.dataSource);
      const instance = await createConnectorInstance(testApp.dataSource, {
        ownerId: owner.id,
        tableSql: 'SELECT 1 AS id',
      });
      const { apiKey } = await createUserWithApiKey(testApp.dataSource);
      await testApp.http
        .get(`/api/stream/data/instance-${instance.id}`)
        .query({ api_key: apiKey })
        .expect(404);
      await testApp.http.get(`/api/stream/data/${instance.id}`).query({ api_key: apiKey }).expect(404);
    });
  });

  describe('GET stream/data (general link)', () => {
    it('streams rows of every dataset the user owns or holds, each tagged with dataset id and title', async () => {
      const { user, apiKey, dataset: own } = await ownerWithTypedDataset();
      const { user: other } = await createUserWithApiKey(testApp.dataSource);
      const held = await createDataset(testApp.dataSource, {
        ownerId: other.id,
        title: 'Held set',
        columns: NUMBERED_COLUMNS,
        rows: [[42]],
      });
      await createDataset(testApp.dataSource, {
        ownerId: other.id,
        title: 'Not held',
        columns: NUMBERED_COLUMNS,
        rows: [[99]],
      });
      await grantAccess(testApp.dataSource, user.id, held.id);

      const response = await testApp.http.get('/api/stream/data').query({ api_key: apiKey }).expect(200);
      const rows = JSON.parse(response.text) as Array<Record<string, unknown>>;
      expect(rows).toHaveLength(4);
      expect(rows[0]).toEqual(
        expect.objectContaining({
          dataset_id: own.id,
          dataset_title: 'Typed sample',
          ID: 1,
          'Amount (€)': 12.5,
          Active: true,
        }),
      );
      expect(Object.keys(rows[0]).slice(0, 2)).toEqual(['dataset_id', 'dataset_title']);
      expect(rows[3]).toEqual({ dataset_id: held.id, dataset_title: 'Held set', Number: 42 });
      expect(rows.some((row) => row.Number === 99)).toBe(false);
    });

    it('streams the general link as CSV with one shared header', async () => {
      const { user, apiKey } = await createUserWithApiKey(testApp.dataSource);
      const first = await createDataset(testApp.dataSource, {
        ownerId: user.id,
        title: 'First, "quoted"',
        columns: NUMBERED_COLUMNS,
        rows: [[1]],
      });
      const second = await createDataset(testApp.dataSource, {
        ownerId: user.id,
        title: 'Second',
        columns: [{ name: 'city', label: 'City', sqlType: 'text', type: 'text' }],
        rows: [['Köln']],
      });
      const response = await testApp.http
        .get('/api/stream/data')
        .set('X-API-Key', apiKey)
        .query({ format: 'csv' })
        .expect(200);
      expect(parseCsv(response.text)).toEqual([
        ['dataset_id', 'dataset_title', 'Number', 'City'],
        [first.id, 'First, "quoted"', '1', null],
        [second.id, 'Second', null, 'Köln'],
      ]);
    });

    it('keeps both columns of a repeated label, under the same keys in CSV and JSON', async () => {
      const { user, apiKey } = await createUserWithApiKey(testApp.dataSource);
      const dataset = await createDataset(testApp.dataSource, {
        ownerId: user.id,
        title: 'Repeated',
        columns: [
          { name: 'a', label: 'a', sqlType: 'integer', type: 'integer' },
          { name: 'a_2', label: 'a', sqlType: 'integer', type: 'integer' },
          { name: 'b', label: 'b', sqlType: 'integer', type: 'integer' },
        ],
        rows: [[1, 2, 3]],
      });
      const csv = await testApp.http
        .get('/api/stream/data')
        .query({ api_key: apiKey, format: 'csv' })
        .expect(200);
      expect(parseCsv(csv.text)).toEqual([
        ['dataset_id', 'dataset_title', 'a', 'a_2', 'b'],
        [dataset.id, 'Repeated', '1', '2', '3'],
      ]);
      const json = await testApp.http.get('/api/stream/data').query({ api_key: apiKey }).expect(200);
      expect(JSON.parse(json.text)).toEqual([
        { dataset_id: dataset.id, dataset_title: 'Repeated', a: 1, a_2: 2, b: 3 },
      ]);
    });

    it('answers at most 5,000 rows, pages within that cap, and an empty array without datasets', async () => {
      const { user, apiKey } = await createUserWithApiKey(testApp.dataSource);
      await createDataset(testApp.dataSource, {
        ownerId: user.id,
        columns: NUMBERED_COLUMNS,
        rowsSql: 'SELECT generate_series(1, 4000)',
      });
      await createDataset(testApp.dataSource, {
        ownerId: user.id,
        columns: NUMBERED_COLUMNS,
        rowsSql: 'SELECT generate_series(4001, 7000)',
      });
      const all = await testApp.http.get('/api/stream/data').query({ api_key: apiKey }).expect(200);
      const rows = JSON.parse(all.text) as Array<{ Number: number }>;
      expect(rows).toHaveLength(5000);
      expect(rows[4999].Number).toBe(5000);
      const tooMany = await testApp.http
        .get('/api/stream/data')
        .query({ api_key: apiKey, limit: 9000 })
        .expect(200);
      expect(JSON.parse(tooMany.text)).toHaveLength(5000);
      const page = await testApp.http
        .get('/api/stream/data')
        .query({ api_key: apiKey, limit: 2, offset: 3999 })
        .expect(200);
      expect((JSON.parse(page.text) as Array<{ Number: number }>).map((row) => row.Number)).toEqual([
        4000, 4001,
      ]);
      const lastPage = await testApp.http
        .get('/api/stream/data')
        .query({ api_key: apiKey, limit: 100, offset: 4990 })
        .expect(200);
      expect((JSON.parse(lastPage.text) as Array<{ Number: number }>).map((row) => row.Number)).toEqual([
        4991, 4992, 4993, 4994, 4995, 4996, 4997, 4998, 4999, 5000,
      ]);
      const pastTheCap = await testApp.http
        .get('/api/stream/data')
        .query({ api_key: apiKey, offset: 5000 })
        .expect(200);
      expect(JSON.parse(pastTheCap.text)).toEqual([]);
      const pastTheCapCsv = await testApp.http
        .get('/api/stream/data')
        .query({ api_key: apiKey, offset: 6000, format: 'csv' })
        .expect(200);
      expect(parseCsv(pastTheCapCsv.text)).toEqual([['dataset_id', 'dataset_title', 'Number']]);
      const csv = await testApp.http
        .get('/api/stream/data')
        .query({ api_key: apiKey, format: 'csv' })
        .expect(200);
      expect(csv.text.trimEnd().split('\n')).toHaveLength(5001);

      const { apiKey: emptyKey } = await createUserWithApiKey(testApp.dataSource);
      const empty = await testApp.http.get('/api/stream/data').query({ api_key: emptyKey }).expect(200);
      expect(JSON.parse(empty.text)).toEqual([]);
    });
  });
});
