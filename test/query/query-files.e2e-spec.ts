import * as ExcelJS from 'exceljs';
import { parquetMetadata } from 'hyparquet';
import type { Response, Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser, TestUser } from '../factories/user.factory';
import { readParquet } from '../stream/support/read-parquet';
import { readParquetWithArrowRs } from '../stream/support/read-parquet-arrow';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

type Agent = TestAgent<Test>;

const CSV = 'name,amount,note\nalpha,1,""\nbeta,2,\n';

function binary(response: Response, callback: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  response.on('data', (chunk: Buffer) => chunks.push(chunk));
  response.on('end', () => callback(null, Buffer.concat(chunks)));
}

/** Every typed column kind, a repeated name, a numeric with and without declared digits. */
const TYPED_SQL = (table: string) => `
  SELECT name, amount, amount * 1.5 AS amount,
         (amount * 1.25)::numeric(12, 2) AS price,
         amount = 1 AS first, DATE '2024-02-29' + amount::int AS day,
         TIMESTAMP '2025-11-17 05:11:07.758123' AS seen,
         TIMESTAMPTZ '2025-11-17 05:11:07.758123+02' AS at,
         note, '{"a": [1, 2]}'::jsonb AS payload, 0.1::float8 AS ratio
  FROM ${table} ORDER BY 1`;

const micros = (iso: string, extra: number) => BigInt(Date.parse(iso)) * 1000n + BigInt(extra);
const DAY_MS = 86_400_000;

describe('POST /api/query as Parquet and Excel files', () => {
  let testApp: TestApp;
  let owner: { user: TestUser; agent: Agent };
  let other: { user: TestUser; agent: Agent };
  let tableName: string;

  beforeAll(async () => {
    testApp = await createTestApp();
    owner = await createLoggedInUser(testApp);
    other = await createLoggedInUser(testApp);
    const datasetId = await uploadDataset(owner.agent, { title: 'Typed query', is_public: 'false' }, CSV);
    tableName = (await owner.agent.get(`/api/assets/${datasetId}`).expect(200)).body.readable_name;
  });
  afterAll(() => testApp.close());

  const query = (agent: Agent, body: object) =>
    agent
      .post('/api/query')
      .set('Origin', TEST_ORIGIN)
      .send(body)
      .buffer(true)
      .parse(binary as never);

  it('answers format=parquet with typed columns that two independent readers give back exactly', async () => {
    const response = await query(owner.agent, { sql: TYPED_SQL(tableName), format: 'parquet' }).expect(200);
    expect(response.headers['content-type']).toBe('application/vnd.apache.parquet');
    expect(response.headers['content-disposition']).toBe('attachment; filename="query.parquet"');
    const expected = [
      {
        name: 'alpha',
        amount: 1n,
        // A numeric is not scanned before it is written: its exact text, declared digits or not.
        amount_2: '1.5',
        price: '1.25',
        first: true,
        day: Date.UTC(2024, 2, 1) / DAY_MS,
        seen: micros('2025-11-17T05:11:07.758Z', 123),
        at: micros('2025-11-17T03:11:07.758Z', 123),
        note: '',
        payload: '{"a": [1, 2]}',
        ratio: 0.1,
      },
      {
        name: 'beta',
        amount: 2n,
        amount_2: '3.0',
        price: '2.50',
        first: false,
        day: Date.UTC(2024, 2, 2) / DAY_MS,
        seen: micros('2025-11-17T05:11:07.758Z', 123),
        at: micros('2025-11-17T03:11:07.758Z', 123),
        note: null,
        payload: '{"a": [1, 2]}',
        ratio: 0.1,
      },
    ];
    const parquet = await readParquet(response.body as Buffer);
    expect(parquet.rows).toEqual(expected);
    expect(readParquetWithArrowRs(response.body as Buffer)).toEqual(expected);
    const byName = Object.fromEntries(parquet.columns.map((column) => [column.name, column]));
    expect(byName.price).toMatchObject({ logicalType: { type: 'STRING' } });
    expect(byName.amount_2).toMatchObject({ logicalType: { type: 'STRING' } });
    expect(byName.at).toMatchObject({ logicalType: { type: 'TIMESTAMP', isAdjustedToUTC: true } });
    expect(byName.seen).toMatchObject({ logicalType: { type: 'TIMESTAMP', isAdjustedToUTC: false } });
  });

  it('compresses the Parquet answer as the compression field asks, Snappy when left out', async () => {
    const sql = `SELECT name, note FROM ${tableName} ORDER BY name`;
    const expected = [
      { name: 'alpha', note: '' },
      { name: 'beta', note: null },
    ];
    for (const [compression, codec] of [
      [undefined, 'SNAPPY'],
      ['gzip', 'GZIP'],
      ['none', 'UNCOMPRESSED'],
    ]) {
      const response = await query(owner.agent, { sql, format: 'parquet', compression }).expect(200);
      const parquet = await readParquet(response.body as Buffer);
      expect({ compression, codecs: new Set(parquet.codecs) }).toEqual({
        compression,
        codecs: new Set([codec]),
      });
      expect(parquet.rows).toEqual(expected);
      expect(readParquetWithArrowRs(response.body as Buffer)).toEqual(expected);
    }
  });

  it('refuses an unknown compression, and compression with any format but Parquet', async () => {
    const sql = `SELECT name FROM ${tableName}`;
    const unknown = await query(owner.agent, { sql, format: 'parquet', compression: 'brotli' }).expect(400);
    expect(JSON.parse(unknown.body.toString()).message).toBe('compression must be snappy, zstd, gzip or none');
    const csv = await query(owner.agent, { sql, format: 'csv', compression: 'gzip' }).expect(400);
    expect(JSON.parse(csv.body.toString()).message).toBe(
      'compression applies to format=parquet; other formats are compressed for a client that sends Accept-Encoding: gzip',
    );
  });

  it('answers format=xlsx as a workbook of typed cells, cut at the limit', async () => {
    const response = await query(owner.agent, {
      sql: `SELECT name, amount, amount = 1 AS first, DATE '2024-02-29' AS day FROM ${tableName} ORDER BY amount`,
      format: 'xlsx',
      limit: 1,
    }).expect(200);
    expect(response.headers['content-disposition']).toBe('attachment; filename="query.xlsx"');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.body as never);
    const sheet = workbook.worksheets[0];
    expect(sheet.name).toBe('query');
    expect(sheet.getRow(1).values).toEqual([undefined, 'name', 'amount', 'first', 'day']);
    expect(sheet.getRow(2).values).toEqual([undefined, 'alpha', 1, true, new Date(Date.UTC(2024, 1, 29))]);
    expect(sheet.rowCount).toBe(2);
  });

  it('refuses a limit beyond what one Excel sheet holds, before running anything', async () => {
    // Only a server whose API answers may be longer than a sheet has a sheet's limit to tell.
    const roomy = await createTestApp({ QUERY_MAX_ROWS: '2000000' });
    const user = await createLoggedInUser(roomy);
    const response = await user.agent
      .post('/api/query')
      .set('Origin', TEST_ORIGIN)
      .send({
        sql: `SELECT 1`,
        format: 'xlsx',
        limit: 1_048_576,
      })
      .expect(400);
    await roomy.close();
    expect(response.body.error).toBe(
      'limit is at most 1,048,575 for format=xlsx, the rows one Excel sheet holds',
    );
    const capped = await query(owner.agent, { sql: 'SELECT 1', format: 'xlsx', limit: 1_000_001 }).expect(
      400,
    );
    expect(JSON.parse(capped.body.toString()).error).toBe('limit is at most 1,000,000');
  });

  it('answers a statement without columns as a Parquet file of its rows', async () => {
    const response = await query(owner.agent, { sql: `SELECT FROM ${tableName}`, format: 'parquet' }).expect(
      200,
    );
    const parquet = await readParquet(response.body as Buffer);
    expect(parquet.columns).toEqual([]);
    expect(parquet.rowGroups).toBe(1);
    const file = response.body as Buffer;
    const metadata = parquetMetadata(
      file.buffer.slice(file.byteOffset, file.byteOffset + file.length) as ArrayBuffer,
    );
    expect(metadata.num_rows).toBe(2n);
  });

  it('names a repeated column so that it takes no name the result already has', async () => {
    const response = await query(owner.agent, {
      sql: 'SELECT 1 AS n, 2 AS n, 3 AS n_2',
      format: 'parquet',
    }).expect(200);
    const parquet = await readParquet(response.body as Buffer);
    expect(parquet.columns.map((column) => column.name)).toEqual(['n', 'n_3', 'n_2']);
    expect(parquet.rows).toEqual([{ n: 1n, n_3: 2n, n_2: 3n }]);
  });

  it('writes NaN in a numeric(p, s) result as its text, as every numeric', async () => {
    const response = await query(owner.agent, {
      sql: `SELECT 'NaN'::numeric(5, 2) AS x UNION ALL SELECT 1.5::numeric(5, 2)`,
      format: 'parquet',
    }).expect(200);
    expect((await readParquet(response.body as Buffer)).rows).toEqual([{ x: 'NaN' }, { x: '1.50' }]);
  });

  it('refuses EXPLAIN as a typed file', async () => {
    const response = await query(owner.agent, {
      sql: `EXPLAIN SELECT * FROM ${tableName}`,
      format: 'parquet',
    }).expect(400);
    expect(JSON.parse(response.body.toString()).error).toBe(
      'An EXPLAIN answers as json, csv or ndjson, not as a file of typed columns',
    );
  });

  it('fails a table the caller does not hold exactly like one that does not exist', async () => {
    const held = await query(other.agent, { sql: `SELECT * FROM ${tableName}`, format: 'parquet' }).expect(
      400,
    );
    const missing = await query(other.agent, {
      sql: `SELECT * FROM no_such_table`,
      format: 'parquet',
    }).expect(400);
    const message = (response: Response) => JSON.parse(response.body.toString()).error as string;
    expect(message(held).replace(tableName, '<name>')).toBe(
      message(missing).replace('no_such_table', '<name>'),
    );
  });

  it('refuses a format it does not know', async () => {
    const response = await query(owner.agent, { sql: 'SELECT 1', format: 'arrow' }).expect(400);
    expect(response.body.toString()).toContain('format is one of json, csv, ndjson, parquet, xlsx');
  });
});
