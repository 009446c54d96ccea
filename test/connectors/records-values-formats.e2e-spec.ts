import { gzipSync } from 'node:zlib';
import { createTestApp, TestApp } from '../support/test-app';
import { FakeUpstream, startFakeUpstream } from './support/fake-upstream';
import { columnTypesOf, rowsOf, runToEnd, tableOf } from './support/run-and-read';
import { connect } from './support/run-through-api';

/** Values land exactly, with date and timestamp types; JSON Lines and CSV pages are read too. */
describe('connector records: exact values, types, names and formats', () => {
  let upstream: FakeUpstream;
  let testApp: TestApp;
  let body = '';
  let contentType = 'application/json';

  beforeAll(async () => {
    upstream = await startFakeUpstream((request, response) => {
      if (request.url.pathname === '/gz') {
        response.writeHead(200, { 'content-type': 'text/csv', 'content-encoding': 'gzip' });
        return response.end(gzipSync(body));
      }
      if (request.url.pathname === '/pages') {
        const page = Number(request.url.searchParams.get('page'));
        response.writeHead(200, { 'content-type': 'application/x-ndjson' });
        const lines = page <= 2 ? [`{"id":${page * 10 + 1}}`, `{"id":${page * 10 + 2}}`] : [];
        return response.end(lines.join('\n'));
      }
      response.writeHead(200, { 'content-type': contentType });
      response.end(body);
    });
    testApp = await createTestApp({ CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' });
  });
  afterAll(async () => {
    await testApp.close();
    await upstream.close();
  });

  const spec = (operation: Record<string, unknown> = {}) => ({
    base_url: upstream.origin,
    operations: [{ id: 'items', url_path: '/items', ...operation }],
  });

  it('stores 19-digit ids and long decimals exactly, so different ids stay different', async () => {
    body =
      '[{"id": 1798765432109876543, "amount": 0.12345678901234567890123},' +
      ' {"id": 1798765432109876544, "amount": 12.5}]';
    const instance = await connect(testApp, spec());
    expect(await runToEnd(instance)).toMatchObject({ status: 'succeeded', row_count: 2 });
    expect(await rowsOf(testApp, instance.id)).toEqual([
      { id: '1798765432109876543', amount: '0.12345678901234567890123' },
      { id: '1798765432109876544', amount: '12.5' },
    ]);
    expect(await columnTypesOf(testApp, instance.id)).toMatchObject({ id: 'numeric', amount: 'numeric' });
  });

  it('keeps exact numbers inside nested jsonb values too', async () => {
    body = '[{"meta": {"big": 1798765432109876543}}]';
    const instance = await connect(testApp, spec());
    await runToEnd(instance);
    const table = await tableOf(testApp, instance.id);
    const [row] = await testApp.dataSource.query(`SELECT meta->>'big' AS big FROM data."${table}"`);
    expect(row.big).toBe('1798765432109876543');
  });

  it('infers timestamptz and date columns from ISO-8601 values', async () => {
    body = JSON.stringify([
      { at: '2024-01-01T00:00:00Z', day: '2024-01-31', local: '2024-03-01T13:00' },
      { at: '2024-06-01T12:30:00+02:00', day: '2024-02-29', local: '2024-03-01T14:00' },
    ]);
    const instance = await connect(testApp, spec());
    await runToEnd(instance);
    expect(await columnTypesOf(testApp, instance.id)).toMatchObject({
      at: 'timestamp with time zone',
      day: 'date',
      local: 'timestamp with time zone',
    });
    const table = await tableOf(testApp, instance.id);
    const rows = await testApp.dataSource.query(
      `SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS at, day::text AS day,
              to_char(local AT TIME ZONE 'UTC', 'HH24:MI') AS local FROM data."${table}" ORDER BY ctid`,
    );
    expect(rows).toEqual([
      { at: '2024-01-01 00:00', day: '2024-01-31', local: '13:00' },
      { at: '2024-06-01 10:30', day: '2024-02-29', local: '14:00' },
    ]);
  });

  it('widens: a date column meeting a timestamp becomes timestamptz, meeting other text becomes text', async () => {
    body = JSON.stringify([
      { mixed: '2024-01-02', odd: '2024-01-02' },
      { mixed: '2024-01-03T06:00:00Z', odd: 'not a date' },
      { mixed: null, odd: '2024-02-30' },
    ]);
    const instance = await connect(testApp, spec());
    await runToEnd(instance);
    expect(await columnTypesOf(testApp, instance.id)).toMatchObject({
      mixed: 'timestamp with time zone',
      odd: 'text',
    });
    expect((await rowsOf(testApp, instance.id)).map((row) => row.odd)).toEqual([
      '2024-01-02',
      'not a date',
      '2024-02-30',
    ]);
  });

  it('splits camelCase names (createdAt -> created_at) and still resolves collisions', async () => {
    body = JSON.stringify([{ createdAt: 'x', created_at: 'y', HTTPStatus: 200 }]);
    const instance = await connect(testApp, spec());
    await runToEnd(instance);
    expect(await rowsOf(testApp, instance.id)).toEqual([
      { created_at: 'x', created_at_2: 'y', http_status: '200' },
    ]);
  });

  it('an existing table keeps its older column name (createdat) for the same field', async () => {
    body = JSON.stringify([{ createdAt: 'first' }]);
    const instance = await connect(testApp, spec());
    const table = await tableOf(testApp, instance.id);
    await testApp.dataSource.query(`ALTER TABLE data."${table}" ADD COLUMN createdat text`);
    await runToEnd(instance);
    expect(await rowsOf(testApp, instance.id)).toEqual([{ createdat: 'first' }]);
    expect(Object.keys(await columnTypesOf(testApp, instance.id))).not.toContain('created_at');
  });

  it('the preview shows the newest run first, each run in the order fetched, internal columns last', async () => {
    body = JSON.stringify([{ n: 1 }, { n: 2 }, { n: 3 }]);
    const instance = await connect(testApp, spec());
    const table = await tableOf(testApp, instance.id);
    const empty = await instance.agent.get(`/api/assets/table/${table}`).expect(200);
    expect(empty.body.rows).toEqual([]);
    await runToEnd(instance);
    body = JSON.stringify([{ n: 4 }, { n: 5 }]);
    await runToEnd(instance);
    const preview = await instance.agent.get(`/api/assets/table/${table}`).expect(200);
    expect(preview.body.rows.map((row: { n: number }) => row.n)).toEqual([4, 5, 1, 2, 3]);
    expect(preview.body.columns.map((column: { name: string }) => column.name)).toEqual([
      'n',
      '_run_id',
      '_fetched_at',
    ]);
  });

  it('reads JSON Lines pages, page by page', async () => {
    const instance = await connect(
      testApp,
      spec({
        url_path: '/pages',
        format: { type: 'jsonl' },
        pagination: { type: 'page', page_param: 'page', start_page: 1 },
      }),
    );
    upstream.requests.splice(0);
    expect(await runToEnd(instance)).toMatchObject({ status: 'succeeded', row_count: 4, pages_fetched: 3 });
    expect((await rowsOf(testApp, instance.id)).map((row) => row.id)).toEqual(['11', '12', '21', '22']);
    expect(upstream.requests.map((request) => request.url.searchParams.get('page'))).toEqual(['1', '2', '3']);
  });

  it('reads CSV with a header row: numbers as written, empty fields null, "" empty text, text quoted with commas', async () => {
    body = 'id,name,score,active\n1798765432109876543,"Smith, Jane",1.5,true\n2,,,false\n3,"",12.50,true\n';
    contentType = 'text/csv';
    const instance = await connect(testApp, spec({ format: { type: 'csv' } }));
    await runToEnd(instance);
    contentType = 'application/json';
    expect(await rowsOf(testApp, instance.id)).toEqual([
      { id: '1798765432109876543', name: 'Smith, Jane', score: '1.5', active: 'true' },
      { id: '2', name: null, score: null, active: 'false' },
      { id: '3', name: '', score: '12.50', active: 'true' },
    ]);
    expect(await columnTypesOf(testApp, instance.id)).toMatchObject({ id: 'numeric', active: 'boolean' });
  });

  it('reads gzip-compressed CSV with another delimiter', async () => {
    body = 'city;temp\nOslo;-3\nRome;14\n';
    const instance = await connect(
      testApp,
      spec({ url_path: '/gz', format: { type: 'csv', delimiter: ';' } }),
    );
    expect(await runToEnd(instance)).toMatchObject({ status: 'succeeded', row_count: 2 });
    expect(await rowsOf(testApp, instance.id)).toEqual([
      { city: 'Oslo', temp: '-3' },
      { city: 'Rome', temp: '14' },
    ]);
  });

  it('a broken JSON Lines line fails the run naming the line', async () => {
    body = '{"a":1}\n{oops}\n';
    const instance = await connect(testApp, spec({ format: { type: 'jsonl' } }));
    const run = await runToEnd(instance);
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/^Line 2 of the response from 127\.0\.0\.1:\d+\/items is not valid JSON/);
  });
});
