import * as ExcelJS from 'exceljs';
import type { Response } from 'supertest';
import { createTestApp, TestApp } from '../support/test-app';
import { createConnectorInstance, createDataset, createUserWithApiKey, TestColumn } from './stream.factory';
import { decimalText, readParquet } from './support/read-parquet';
import { readParquetWithArrowRs } from './support/read-parquet-arrow';
import { readParquetWithDuckDb } from './support/read-parquet-duckdb';

const UNICODE = 'ünïcödé 😀 "quoted", comma\nnew line';

const COLUMNS: TestColumn[] = [
  { name: 'big', label: 'Big', sqlType: 'bigint', type: 'integer' },
  { name: 'small', label: 'Small', sqlType: 'integer', type: 'integer' },
  { name: 'amount', label: 'Amount', sqlType: 'numeric', type: 'numeric' },
  { name: 'ok', label: 'OK', sqlType: 'boolean', type: 'boolean' },
  { name: 'day', label: 'Day', sqlType: 'date', type: 'date' },
  { name: 'seen', label: 'Seen', sqlType: 'timestamp', type: 'timestamp' },
  { name: 'at', label: 'At', sqlType: 'timestamptz', type: 'timestamptz' },
  { name: 'note', label: 'Note', sqlType: 'text', type: 'text' },
];

const ROWS = [
  [
    '9223372036854775807',
    42,
    '12345678901234567890.12',
    true,
    '2024-02-29',
    '2025-11-17 05:11:07.758123',
    '2025-11-17T05:11:07.758123+02:00',
    UNICODE,
  ],
  [
    '-9223372036854775808',
    -7,
    '12.50',
    false,
    '1969-12-31',
    '1999-12-31 23:59:59.999999',
    '1970-01-01T00:00:00Z',
    '',
  ],
  [
    '1234567890123456789',
    0,
    '-0.001',
    true,
    '2000-01-01',
    '2000-01-01 00:00:00',
    '2000-01-01T00:00:00.000001Z',
    null,
  ],
  [null, null, null, null, null, null, null, null],
];

const DAY_MS = 86_400_000;
/** Microseconds since 1970 of a UTC wall clock, computed here independently of the server. */
const micros = (iso: string, extraMicros = 0) => BigInt(Date.parse(iso)) * 1000n + BigInt(extraMicros);

/** Every value of ROWS as a Parquet reader should give it back, exactly. */
const EXPECTED_PARQUET_ROWS = [
  {
    Big: 9223372036854775807n,
    Small: 42n,
    Amount: '12345678901234567890.120',
    OK: true,
    Day: Date.UTC(2024, 1, 29) / DAY_MS,
    Seen: micros('2025-11-17T05:11:07.758Z', 123),
    At: micros('2025-11-17T03:11:07.758Z', 123),
    Note: UNICODE,
  },
  {
    Big: -9223372036854775808n,
    Small: -7n,
    Amount: '12.500',
    OK: false,
    Day: -1,
    Seen: micros('1999-12-31T23:59:59.999Z', 999),
    At: 0n,
    Note: '',
  },
  {
    Big: 1234567890123456789n,
    Small: 0n,
    Amount: '-0.001',
    OK: true,
    Day: Date.UTC(2000, 0, 1) / DAY_MS,
    Seen: micros('2000-01-01T00:00:00Z'),
    At: micros('2000-01-01T00:00:00Z', 1),
    Note: null,
  },
  { Big: null, Small: null, Amount: null, OK: null, Day: null, Seen: null, At: null, Note: null },
];

/** JSON of a row with its BigInts as text, to compare rows in one step. */
const big = (_key: string, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value);

function binary(response: Response, callback: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  response.on('data', (chunk: Buffer) => chunks.push(chunk));
  response.on('end', () => callback(null, Buffer.concat(chunks)));
}

describe('stream links as Parquet and Excel files', () => {
  let testApp: TestApp;
  let apiKey: string;
  let strangerKey: string;
  let ownerId: string;
  let tableName: string;

  const readableNameOf = async (table: 'assets' | 'connector_instances', id: string) =>
    (await testApp.dataSource.query(`SELECT readable_name FROM ${table} WHERE id = $1`, [id]))[0]
      .readable_name as string;

  const download = (reference: string, format: string, key = apiKey, query: Record<string, unknown> = {}) =>
    testApp.http
      .get(`/api/stream/data/${reference}`)
      .query({ api_key: key, format, ...query })
      .buffer(true)
      .parse(binary as never);

  beforeAll(async () => {
    testApp = await createTestApp();
    const owner = await createUserWithApiKey(testApp.dataSource);
    apiKey = owner.apiKey;
    ownerId = owner.user.id;
    strangerKey = (await createUserWithApiKey(testApp.dataSource)).apiKey;
    const dataset = await createDataset(testApp.dataSource, {
      ownerId,
      title: 'Typed values',
      isPublic: false,
      columns: COLUMNS,
      rows: ROWS,
    });
    tableName = await readableNameOf('assets', dataset.id);
  });
  afterAll(() => testApp.close());

  describe('format=parquet', () => {
    it('writes every column type with its logical type, and a reader gets back every value exactly', async () => {
      const response = await download(tableName, 'parquet').expect(200);
      expect(response.headers['content-type']).toBe('application/vnd.apache.parquet');
      expect(response.headers['content-disposition']).toBe(`attachment; filename="${tableName}.parquet"`);
      const parquet = await readParquet(response.body as Buffer);
      expect(parquet.rows).toEqual(EXPECTED_PARQUET_ROWS);
      expect(readParquetWithArrowRs(response.body as Buffer)).toEqual(EXPECTED_PARQUET_ROWS);
      const byName = Object.fromEntries(parquet.columns.map((column) => [column.name, column]));
      expect(byName.Big).toMatchObject({ type: 'INT64' });
      expect(byName.Small).toMatchObject({ type: 'INT64' });
      // 20 digits before the point, 3 after (the most any value has): DECIMAL(23, 3).
      expect(byName.Amount).toMatchObject({
        logicalType: { type: 'DECIMAL', precision: 23, scale: 3 },
        precision: 23,
        scale: 3,
      });
      expect(byName.OK).toMatchObject({ type: 'BOOLEAN' });
      expect(byName.Day).toMatchObject({ logicalType: { type: 'DATE' } });
      expect(byName.Seen).toMatchObject({
        logicalType: { type: 'TIMESTAMP', isAdjustedToUTC: false, unit: 'MICROS' },
      });
      expect(byName.At).toMatchObject({
        logicalType: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' },
      });
      expect(byName.Note).toMatchObject({ logicalType: { type: 'STRING' } });
    });

    it.each([
      ['snappy', 'SNAPPY'],
      ['zstd', 'ZSTD'],
      ['gzip', 'GZIP'],
      ['none', 'UNCOMPRESSED'],
    ])(
      'compresses the pages as compression=%s asks, and every reader gets back every value',
      async (asked, codec) => {
        const response = await download(tableName, 'parquet', apiKey, { compression: asked }).expect(200);
        const parquet = await readParquet(response.body as Buffer);
        expect(new Set(parquet.codecs)).toEqual(new Set([codec]));
        expect(parquet.rows).toEqual(EXPECTED_PARQUET_ROWS);
        expect(readParquetWithArrowRs(response.body as Buffer)).toEqual(EXPECTED_PARQUET_ROWS);
        expect(await readParquetWithDuckDb(response.body as Buffer)).toEqual(EXPECTED_PARQUET_ROWS);
      },
    );

    describe('values that repeat, as dictionary pages', () => {
      /** ROWS again and again: every column but the booleans (a bit each already) takes a dictionary. */
      const REPEATS = 250;
      let repeatedName: string;
      beforeAll(async () => {
        const dataset = await createDataset(testApp.dataSource, {
          ownerId,
          columns: COLUMNS,
          rows: Array.from({ length: ROWS.length * REPEATS }, (_, index) => ROWS[index % ROWS.length]),
        });
        repeatedName = await readableNameOf('assets', dataset.id);
      });

      it.each(['snappy', 'zstd', 'gzip', 'none'])(
        'writes a dictionary page per column (compression=%s), and every reader gets back every value',
        async (compression) => {
          const response = await download(repeatedName, 'parquet', apiKey, { compression }).expect(200);
          const body = response.body as Buffer;
          const expected = Array.from(
            { length: ROWS.length * REPEATS },
            (_, index) => EXPECTED_PARQUET_ROWS[index % ROWS.length],
          );
          const parquet = await readParquet(body);
          for (const [name, groups] of Object.entries(parquet.encodings))
            expect([name, groups]).toEqual([
              name,
              [name === 'OK' ? ['PLAIN', 'RLE'] : ['PLAIN', 'RLE', 'RLE_DICTIONARY']],
            ]);
          expect(parquet.rows).toEqual(expected);
          expect(readParquetWithArrowRs(body)).toEqual(expected);
          expect(await readParquetWithDuckDb(body)).toEqual(expected);
        },
      );
    });

    it('writes a dictionary only for repeating values, column by column and group by group', async () => {
      // Two row groups: codes (leading zeros kept) and days repeat, labels and numbers do not
      // (numbers then go as their differences).
      const rows = 70_000;
      const dataset = await createDataset(testApp.dataSource, {
        ownerId,
        columns: [
          { name: 'n', label: 'N', sqlType: 'bigint', type: 'integer' },
          { name: 'code', label: 'Code', sqlType: 'text', type: 'text' },
          { name: 'label', label: 'Label', sqlType: 'text', type: 'text' },
          { name: 'day', label: 'Day', sqlType: 'date', type: 'date' },
        ],
        rowsSql: `SELECT i, CASE WHEN i % 11 = 0 THEN NULL ELSE lpad((i % 7)::text, 5, '0') END,
                         'row ' || i, DATE '2024-01-01' + (i % 30)
                  FROM generate_series(1, ${rows}) i`,
      });
      const response = await download(await readableNameOf('assets', dataset.id), 'parquet').expect(200);
      const body = response.body as Buffer;
      const parquet = await readParquet(body);
      const dictionary = ['PLAIN', 'RLE', 'RLE_DICTIONARY'];
      const plain = ['PLAIN', 'RLE'];
      const delta = ['DELTA_BINARY_PACKED', 'RLE'];
      expect(parquet.encodings).toEqual({
        N: [delta, delta],
        Code: [dictionary, dictionary],
        Label: [plain, plain],
        Day: [dictionary, dictionary],
      });
      const firstDay = Date.UTC(2024, 0, 1) / DAY_MS;
      const expected = (index: number) => {
        const i = index + 1;
        return {
          N: BigInt(i),
          Code: i % 11 === 0 ? null : String(i % 7).padStart(5, '0'),
          Label: `row ${i}`,
          Day: firstDay + (i % 30),
        };
      };
      // One comparison per row, reported as the first row that differs (70,000 expect calls are slow).
      const firstWrong = (read: Array<Record<string, unknown>>) => {
        if (read.length !== rows) return `${read.length} rows`;
        const index = read.findIndex(
          (row, at) => JSON.stringify(row, big) !== JSON.stringify(expected(at), big),
        );
        return index === -1 ? 'all rows match' : read[index];
      };
      // arrow-rs reads dictionary pages in the tests above; through Arrow JS, 70,000 rows take it seconds.
      expect(firstWrong(parquet.rows)).toBe('all rows match');
      expect(firstWrong(await readParquetWithDuckDb(body))).toBe('all rows match');
    });

    it.each(['snappy', 'none'])(
      'writes distinct integers, decimals and dates as differences where they fit 32 bits (compression=%s), PLAIN where not',
      async (compression) => {
        // 3,000 rows: 23 whole blocks of 128 differences and a last one cut within a miniblock.
        const dataset = await createDataset(testApp.dataSource, {
          ownerId,
          columns: [
            { name: 'up', label: 'Up', sqlType: 'bigint', type: 'integer' },
            { name: 'down', label: 'Down', sqlType: 'integer', type: 'integer' },
            { name: 'scattered', label: 'Scattered', sqlType: 'bigint', type: 'integer' },
            { name: 'wide', label: 'Wide', sqlType: 'bigint', type: 'integer' },
            { name: 'spread', label: 'Spread', sqlType: 'bigint', type: 'integer' },
            { name: 'amount', label: 'Amount', sqlType: 'numeric', type: 'numeric' },
            { name: 'day', label: 'Day', sqlType: 'date', type: 'date' },
          ],
          rowsSql: `SELECT i, 1000000 - i * 37,
                           CASE WHEN i % 9 = 0 THEN NULL ELSE (i * 7919) % 100000 - 50000 END,
                           i * 1000000000000, (i::bigint * 2654435761) % 4294967296 - 2147483648,
                           (((i * 104729) % 99991) * 0.01)::numeric(12, 2), DATE '1900-01-01' + i * 3
                    FROM generate_series(1, 3000) i`,
        });
        const response = await download(await readableNameOf('assets', dataset.id), 'parquet', apiKey, {
          compression,
        }).expect(200);
        const body = response.body as Buffer;
        const parquet = await readParquet(body);
        const delta = [['DELTA_BINARY_PACKED', 'RLE']];
        const plain = [['PLAIN', 'RLE']];
        expect(parquet.encodings).toEqual({
          Up: delta,
          Down: delta,
          Scattered: delta,
          Wide: plain,
          Spread: plain,
          Amount: delta,
          Day: delta,
        });
        const firstDay = Date.UTC(1900, 0, 1) / DAY_MS;
        const expected = Array.from({ length: 3000 }, (_, index) => {
          const i = index + 1;
          const cents = (i * 104729) % 99991;
          return {
            Up: BigInt(i),
            Down: BigInt(1000000 - i * 37),
            Scattered: i % 9 === 0 ? null : BigInt(((i * 7919) % 100000) - 50000),
            Wide: BigInt(i) * 1000000000000n,
            Spread: ((BigInt(i) * 2654435761n) % 4294967296n) - 2147483648n,
            Amount: decimalText(BigInt(cents), 2),
            Day: firstDay + i * 3,
          };
        });
        expect(parquet.rows).toEqual(expected);
        expect(readParquetWithArrowRs(body)).toEqual(expected);
        expect(await readParquetWithDuckDb(body)).toEqual(expected);
      },
    );

    it('compresses the pages with Snappy when no compression is asked', async () => {
      const response = await download(tableName, 'parquet').expect(200);
      expect(new Set((await readParquet(response.body as Buffer)).codecs)).toEqual(new Set(['SNAPPY']));
    });

    it('refuses a compression it does not write, and compression for any format but Parquet', async () => {
      const unknown = await download(tableName, 'parquet', apiKey, { compression: 'brotli' }).expect(400);
      expect(JSON.parse(unknown.body.toString()).message).toBe(
        'compression must be snappy, zstd, gzip or none',
      );
      const notParquet = await download(tableName, 'csv', apiKey, { compression: 'gzip' }).expect(400);
      expect(JSON.parse(notParquet.body.toString()).message).toBe(
        'compression applies to format=parquet; other formats are compressed for a client that sends Accept-Encoding: gzip',
      );
    });

    it('streams a large table in row groups of at most 65,536 rows, every row in order', async () => {
      const dataset = await createDataset(testApp.dataSource, {
        ownerId,
        columns: [
          { name: 'n', label: 'N', sqlType: 'integer', type: 'integer' },
          { name: 'label', label: 'Label', sqlType: 'text', type: 'text' },
        ],
        rowsSql: `SELECT i, 'row ' || i FROM generate_series(1, 150000) i`,
      });
      const response = await download(await readableNameOf('assets', dataset.id), 'parquet').expect(200);
      const parquet = await readParquet(response.body as Buffer);
      expect(parquet.rowGroups).toBe(3);
      expect(parquet.rows).toHaveLength(150_000);
      // One comparison per row, reported as the first row that differs (150,000 expect calls are slow).
      const firstWrong = parquet.rows.findIndex(
        (row, index) =>
          row.N !== BigInt(index + 1) || row.Label !== `row ${index + 1}` || Object.keys(row).length !== 2,
      );
      expect(firstWrong === -1 ? 'all rows match' : parquet.rows[firstWrong]).toBe('all rows match');
    });

    it('writes a decimal of up to 18 digits as an INT64 DECIMAL that both readers give back exactly', async () => {
      const dataset = await createDataset(testApp.dataSource, {
        ownerId,
        columns: [{ name: 'x', label: 'X', sqlType: 'numeric', type: 'numeric' }],
        rows: [['1.5'], ['-2.25'], [null], ['9999999999999999.99']],
      });
      const response = await download(await readableNameOf('assets', dataset.id), 'parquet').expect(200);
      const expected = [{ X: '1.50' }, { X: '-2.25' }, { X: null }, { X: '9999999999999999.99' }];
      const parquet = await readParquet(response.body as Buffer);
      expect(parquet.rows).toEqual(expected);
      expect(readParquetWithArrowRs(response.body as Buffer)).toEqual(expected);
      expect(parquet.columns[0]).toMatchObject({ type: 'INT64', precision: 18, scale: 2 });
    });

    it('writes a numeric column holding NaN as exact text, and honours filters and paging', async () => {
      const dataset = await createDataset(testApp.dataSource, {
        ownerId,
        columns: [
          { name: 'n', label: 'N', sqlType: 'integer', type: 'integer' },
          { name: 'x', label: 'X', sqlType: 'numeric', type: 'numeric' },
        ],
        rows: [
          [1, '1.5'],
          [2, 'NaN'],
          [3, '0.25'],
          [4, '7'],
        ],
      });
      const name = await readableNameOf('assets', dataset.id);
      const response = await download(name, 'parquet', apiKey, { filter: 'n:gte:2', limit: 2 }).expect(200);
      const parquet = await readParquet(response.body as Buffer);
      expect(parquet.rows).toEqual([
        { N: 2n, X: 'NaN' },
        { N: 3n, X: '0.25' },
      ]);
      expect(parquet.columns.find((column) => column.name === 'X')).toMatchObject({
        logicalType: { type: 'STRING' },
      });
    });

    it('writes a connector table, jsonb as its JSON text', async () => {
      const instance = await createConnectorInstance(testApp.dataSource, {
        ownerId,
        tableSql: `SELECT '{"a": [1, 2]}'::jsonb AS payload, TIMESTAMPTZ '2024-05-01 10:00:00+00' AS fetched_at`,
      });
      const response = await download(
        await readableNameOf('connector_instances', instance.id),
        'parquet',
      ).expect(200);
      const parquet = await readParquet(response.body as Buffer);
      expect(parquet.rows).toEqual([
        { payload: '{"a": [1, 2]}', fetched_at: micros('2024-05-01T10:00:00Z') },
      ]);
    });
  });

  describe('format=xlsx', () => {
    it('writes typed cells: numbers, dates, booleans and text, long numbers as text', async () => {
      const response = await download(tableName, 'xlsx').expect(200);
      expect(response.headers['content-type']).toBe(
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      );
      expect(response.headers['content-disposition']).toBe(`attachment; filename="${tableName}.xlsx"`);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(response.body as never);
      const sheet = workbook.worksheets[0];
      const values = sheet
        .getSheetValues()
        .slice(1)
        .map((row) => (row as unknown[]).slice(1));
      expect(values[0]).toEqual(['Big', 'Small', 'Amount', 'OK', 'Day', 'Seen', 'At', 'Note']);
      expect(values[1]).toEqual([
        '9223372036854775807',
        42,
        '12345678901234567890.12',
        true,
        new Date('2024-02-29T00:00:00Z'),
        new Date('2025-11-17T05:11:07.758Z'),
        new Date('2025-11-17T03:11:07.758Z'),
        UNICODE,
      ]);
      expect(values[2]).toEqual([
        '-9223372036854775808',
        -7,
        12.5,
        false,
        new Date('1969-12-31T00:00:00Z'),
        new Date('1999-12-31T23:59:59.999Z'),
        new Date('1970-01-01T00:00:00Z'),
        // Excel has no empty text apart from an empty cell: "" and NULL both leave it blank.
      ]);
      expect(values[3]).toEqual([
        '1234567890123456789',
        0,
        -0.001,
        true,
        new Date('2000-01-01T00:00:00Z'),
        new Date('2000-01-01T00:00:00Z'),
        new Date('2000-01-01T00:00:00Z'),
        undefined,
      ]);
      expect(values[4] ?? []).toEqual([]);
      expect(sheet.getCell('E2').numFmt).toBe('yyyy-mm-dd');
    });

    it('refuses more rows than a sheet holds with 400 before sending anything, and takes a page of them', async () => {
      const dataset = await createDataset(testApp.dataSource, {
        ownerId,
        columns: [{ name: 'n', label: 'N', sqlType: 'integer', type: 'integer' }],
        rowsSql: `SELECT i FROM generate_series(1, 1048576) i`,
      });
      const name = await readableNameOf('assets', dataset.id);
      const refused = await testApp.http
        .get(`/api/stream/data/${name}`)
        .query({ api_key: apiKey, format: 'xlsx' });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe(
        'An Excel sheet holds at most 1,048,575 rows and this download has more. ' +
          'Use format=csv or format=parquet, or fetch it in pages with limit and offset.',
      );
      const page = await download(name, 'xlsx', apiKey, { limit: 3, offset: 1048573 }).expect(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(page.body as never);
      const cells = workbook.worksheets[0].getColumn(1).values.slice(1);
      expect(cells).toEqual(['N', 1048574, 1048575, 1048576]);
    });
  });

  it.each(['parquet', 'xlsx'])(
    'answers 404 with the reason for a connector table that has no columns yet (format=%s)',
    async (format) => {
      const instance = await createConnectorInstance(testApp.dataSource, { ownerId });
      const name = await readableNameOf('connector_instances', instance.id);
      const response = await testApp.http.get(`/api/stream/data/${name}`).query({ api_key: apiKey, format });
      expect(response.status).toBe(404);
      expect(response.body.error).toBe(
        'This table has no columns yet: it is filled by its first connector run.',
      );
    },
  );

  describe('who may download', () => {
    it.each(['parquet', 'xlsx'])(
      'answers 404 to a stranger (format=%s), as for a missing table',
      async (format) => {
        const forbidden = await testApp.http
          .get(`/api/stream/data/${tableName}`)
          .query({ api_key: strangerKey, format });
        const missing = await testApp.http
          .get('/api/stream/data/no_such_table_anywhere')
          .query({ api_key: strangerKey, format });
        expect(forbidden.status).toBe(404);
        expect(forbidden.body).toEqual(missing.body);
      },
    );

    it.each(['parquet', 'xlsx'])(
      'refuses format=%s on the general link, whose datasets share no columns',
      async (format) => {
        const response = await testApp.http.get('/api/stream/data').query({ api_key: apiKey, format });
        expect(response.status).toBe(400);
        expect(response.body.error).toBe(
          'format=parquet and format=xlsx are for the link of one dataset or table: stream/data/{table name}.',
        );
      },
    );
  });
});
