import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { parquetWriteBuffer } from 'hyparquet-writer';
import type TestAgent from 'supertest/lib/agent';
import type { Test } from 'supertest';
import { ColumnProfileService } from '../../src/assets/ingest/column-profile.service';
import { assetCount, orphanDatasetTables, postCsv } from '../factories/asset.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

const GERMAN = 'Stadt;Betrag;Datum\nMünchen;1.234,50;31.12.2024\n"Köln; Dom";7,25;01.02.2025\nUlm;;\n';
const GERMAN_DIALECT = {
  delimiter: ';',
  encoding: 'windows-1252',
  decimal_mark: ',',
  thousands_separator: '.',
  date_order: 'dmy',
};

describe('CSV dialects: uploads and refreshes of files not written the canonical way', () => {
  let testApp: TestApp;
  let agent: TestAgent<Test>;
  let uploaderId: string;

  beforeAll(async () => {
    testApp = await createTestApp();
    const uploader = await createLoggedInUser(testApp, { name: 'Dora Dialect' });
    agent = uploader.agent;
    uploaderId = uploader.user.id;
  });
  afterAll(() => testApp.close());

  async function uploaded(csv: Buffer, fields: Record<string, string>) {
    const response = await postCsv(agent, csv, { title: 'Dialect', ...fields });
    expect(response.body).toEqual(expect.objectContaining({ id: expect.any(String) }));
    const id = response.body.id as string;
    const detail = await agent.get(`/api/assets/${id}`).expect(200);
    const data = await agent.get(`/api/assets/${id}/data?limit=100`).expect(200);
    await testApp.app.get(ColumnProfileService).settled();
    return { id, columns: detail.body.columns, rows: data.body.rows };
  }

  it("detects what the form's preview detects when an API upload names no dialect, and says what it used", async () => {
    const file = Buffer.from(GERMAN, 'utf8');
    const preview = await agent
      .post('/api/assets/upload-preview')
      .set('Origin', TEST_ORIGIN)
      .attach('file', file, 'data.csv')
      .expect(200);
    const response = await postCsv(agent, file, { title: 'Script upload' }).expect(201);
    expect(response.body.dialect).toEqual({
      delimiter: ';',
      encoding: 'utf-8',
      decimal: ',',
      thousands: '.',
      dateOrder: 'dmy',
    });
    expect(response.body.dialect).toEqual(preview.body.dialect);
    const detail = await agent.get(`/api/assets/${response.body.id}`).expect(200);
    expect(detail.body.columns.map((column: { type: string }) => column.type)).toEqual([
      'text',
      'numeric',
      'date',
    ]);
    const data = await agent.get(`/api/assets/${response.body.id}/data?limit=100`).expect(200);
    expect(data.body.rows[0]).toEqual({ stadt: 'München', betrag: 1234.5, datum: '2024-12-31' });
  });

  it('stores a Latin-1, semicolon, decimal-comma, day-first file as typed values and keeps its dialect', async () => {
    const { id, columns, rows } = await uploaded(iconv.encode(GERMAN, 'latin1'), GERMAN_DIALECT);
    expect(columns).toEqual([
      { name: 'stadt', label: 'Stadt', type: 'text' },
      { name: 'betrag', label: 'Betrag', type: 'numeric' },
      { name: 'datum', label: 'Datum', type: 'date' },
    ]);
    expect(rows).toEqual([
      { stadt: 'München', betrag: 1234.5, datum: '2024-12-31' },
      { stadt: 'Köln; Dom', betrag: 7.25, datum: '2025-02-01' },
      { stadt: 'Ulm', betrag: null, datum: null },
    ]);
    const [{ csv_dialect }] = await testApp.dataSource.query(`SELECT csv_dialect FROM assets WHERE id = $1`, [
      id,
    ]);
    expect(csv_dialect).toEqual({
      delimiter: ';',
      encoding: 'windows-1252',
      decimal: ',',
      thousands: '.',
      dateOrder: 'dmy',
    });
  });

  it('refreshes with the dataset dialect without the form naming it again', async () => {
    const { id } = await uploaded(iconv.encode(GERMAN, 'latin1'), GERMAN_DIALECT);
    const next = iconv.encode('Stadt;Betrag;Datum\nWürzburg;2.000,5;05.06.2025\n', 'latin1');
    await agent
      .post(`/api/assets/${id}/refresh`)
      .set('Origin', TEST_ORIGIN)
      .field('mode', 'append')
      .attach('file', next, 'next.csv')
      .expect(200);
    const data = await agent.get(`/api/assets/${id}/data?limit=100`).expect(200);
    expect(data.body.rows.at(-1)).toEqual({ stadt: 'Würzburg', betrag: 2000.5, datum: '2025-06-05' });
  });

  it('names the line, column and value a chosen type cannot hold, and stores nothing', async () => {
    const before = await assetCount(testApp.dataSource, uploaderId);
    const csv = Buffer.from('name|amount\na|1,5\nb|zwei\n');
    const response = await postCsv(agent, csv, {
      title: 'Misfit',
      decimal_mark: ',',
      column_types: 'text,numeric',
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('Column "amount" expects numeric, but line 3 has "zwei"');
    expect(await assetCount(testApp.dataSource, uploaderId)).toBe(before);
    expect(await orphanDatasetTables(testApp.dataSource)).toEqual([]);
  });

  it('keeps a column the uploader chose as text as written', async () => {
    const csv = Buffer.from('code;price\n1.100;1,5\n2.200;2,5\n');
    const { columns, rows } = await uploaded(csv, {
      decimal_mark: ',',
      thousands_separator: '.',
      column_types: 'text,numeric',
    });
    expect(columns.map((column: { type: string }) => column.type)).toEqual(['text', 'numeric']);
    expect(rows).toEqual([
      { code: '1.100', price: 1.5 },
      { code: '2.200', price: 2.5 },
    ]);
  });

  it('reads a UTF-16 file by its BOM and month-first dates as chosen', async () => {
    const text = 'day\tcount\n12/31/2024\t3\n01/02/2025\t4\n';
    const csv = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const { columns, rows } = await uploaded(csv, { date_order: 'mdy' });
    expect(columns.map((column: { type: string }) => column.type)).toEqual(['date', 'integer']);
    expect(rows).toEqual([
      { day: '2024-12-31', count: 3 },
      { day: '2025-01-02', count: 4 },
    ]);
  });

  describe('Excel workbooks', () => {
    async function workbook(): Promise<Buffer> {
      const book = new ExcelJS.Workbook();
      const notes = book.addWorksheet('Notes');
      notes.addRow(['only', 'notes']);
      notes.addRow(['a', 'b']);
      const sales = book.addWorksheet('Sales');
      sales.addRow(['Region', 'Amount', 'Day', 'Paid']);
      sales.addRow(['North, upper', 12.5, new Date(Date.UTC(2024, 11, 31)), true]);
      sales.addRow(['South', 3, new Date(Date.UTC(2025, 0, 2, 8, 30)), false]);
      sales.addRow(['East', null, null, null]);
      return Buffer.from(await book.xlsx.writeBuffer());
    }

    it('loads the chosen sheet of an .xlsx file with the types of its cells', async () => {
      const response = await postCsv(
        agent,
        await workbook(),
        { title: 'Sales', sheet: 'Sales' },
        'sales.xlsx',
      );
      expect(response.status).toBe(201);
      const id = response.body.id as string;
      const detail = await agent.get(`/api/assets/${id}`).expect(200);
      expect(detail.body.columns.map((column: { type: string }) => column.type)).toEqual([
        'text',
        'numeric',
        'timestamp',
        'boolean',
      ]);
      const data = await agent.get(`/api/assets/${id}/data?limit=100`).expect(200);
      expect(data.body.rows).toEqual([
        { region: 'North, upper', amount: 12.5, day: '2024-12-31T00:00:00', paid: true },
        { region: 'South', amount: 3, day: '2025-01-02T08:30:00', paid: false },
        { region: 'East', amount: null, day: null, paid: null },
      ]);
      await testApp.app.get(ColumnProfileService).settled();
    });

    it('loads the first sheet when none is named, and names the sheets when the chosen one is missing', async () => {
      const first = await postCsv(agent, await workbook(), { title: 'First sheet' }, 'book.xlsx');
      expect(first.status).toBe(201);
      const detail = await agent.get(`/api/assets/${first.body.id}`).expect(200);
      expect(detail.body.columns.map((column: { label: string }) => column.label)).toEqual(['only', 'notes']);
      await testApp.app.get(ColumnProfileService).settled();
      const missing = await postCsv(
        agent,
        await workbook(),
        { title: 'Missing', sheet: 'Costs' },
        'book.xlsx',
      );
      expect(missing.status).toBe(400);
      expect(missing.body.error).toBe('The workbook has no sheet "Costs" (it has "Notes", "Sales").');
      expect(await orphanDatasetTables(testApp.dataSource)).toEqual([]);
    });

    it('refuses a file named .xlsx that is no workbook, leaving nothing behind', async () => {
      const response = await postCsv(agent, 'a,b\n1,2\n', { title: 'Fake' }, 'fake.xlsx');
      expect(response.status).toBe(415);
      expect(response.body.error).toBe('The file is not a readable Excel workbook (.xlsx).');
      expect(await orphanDatasetTables(testApp.dataSource)).toEqual([]);
    });
  });

  describe('Parquet files', () => {
    const parquet = () =>
      Buffer.from(
        parquetWriteBuffer({
          columnData: [
            { name: 'station', data: ['North', 'South, bay', null], type: 'STRING' },
            { name: 'level', data: [1.25, 2, null], type: 'DOUBLE' },
            { name: 'readings', data: [10n, 9007199254740993n, null], type: 'INT64' },
            {
              name: 'measured_at',
              data: [new Date(Date.UTC(2025, 0, 2, 3, 4, 5)), new Date(Date.UTC(2025, 0, 3)), null],
              type: 'TIMESTAMP',
            },
            { name: 'calibrated', data: [true, false, null], type: 'BOOLEAN' },
          ],
        }),
      );

    it('loads a .parquet file with the column types the file declares', async () => {
      const response = await postCsv(agent, parquet(), { title: 'Levels' }, 'levels.parquet');
      expect(response.status).toBe(201);
      const id = response.body.id as string;
      const detail = await agent.get(`/api/assets/${id}`).expect(200);
      expect(detail.body.columns.map((column: { type: string }) => column.type)).toEqual([
        'text',
        'numeric',
        'integer',
        'timestamptz',
        'boolean',
      ]);
      const data = await agent.get(`/api/assets/${id}/data?limit=100`).expect(200);
      expect(data.body.rows).toEqual([
        {
          station: 'North',
          level: 1.25,
          readings: 10,
          measured_at: '2025-01-02T03:04:05+00:00',
          calibrated: true,
        },
        {
          station: 'South, bay',
          level: 2,
          readings: '9007199254740993',
          measured_at: '2025-01-03T00:00:00+00:00',
          calibrated: false,
        },
        { station: null, level: null, readings: null, measured_at: null, calibrated: null },
      ]);
      await testApp.app.get(ColumnProfileService).settled();
      const refreshed = await agent
        .post(`/api/assets/${id}/refresh`)
        .set('Origin', TEST_ORIGIN)
        .field('mode', 'append')
        .attach('file', parquet(), 'more.parquet')
        .expect(200);
      expect(refreshed.body).toMatchObject({ mode: 'append', row_count: 6, rows_loaded: 3 });
    });

    it('refuses a file named .parquet that is no Parquet file, leaving nothing behind', async () => {
      const response = await postCsv(agent, 'a,b\n1,2\n', { title: 'Fake' }, 'fake.parquet');
      expect(response.status).toBe(415);
      expect(response.body.error).toBe('The file is not a readable Parquet file (.parquet).');
      expect(await orphanDatasetTables(testApp.dataSource)).toEqual([]);
    });
  });

  describe('POST assets/upload-preview', () => {
    const preview = (csv: Buffer, fields: Record<string, string> = {}, as = agent) => {
      const request = as.post('/api/assets/upload-preview').set('Origin', TEST_ORIGIN);
      for (const [key, value] of Object.entries(fields)) request.field(key, value);
      return request.attach('file', csv, 'data.csv');
    };

    it('answers the detected dialect, typed columns and first rows, and stores nothing', async () => {
      const before = await assetCount(testApp.dataSource, uploaderId);
      const response = await preview(iconv.encode(GERMAN, 'latin1')).expect(200);
      expect(response.body).toEqual({
        dialect: { delimiter: ';', encoding: 'windows-1252', decimal: ',', thousands: '.', dateOrder: 'dmy' },
        columns: [
          { name: 'stadt', label: 'Stadt', type: 'text' },
          { name: 'betrag', label: 'Betrag', type: 'numeric' },
          { name: 'datum', label: 'Datum', type: 'date' },
        ],
        rows: [
          ['München', '1.234,50', '31.12.2024'],
          ['Köln; Dom', '7,25', '01.02.2025'],
          ['Ulm', '', ''],
        ],
      });
      expect(await assetCount(testApp.dataSource, uploaderId)).toBe(before);
      expect(await orphanDatasetTables(testApp.dataSource)).toEqual([]);
    });

    it('types the columns in the dialect the form chooses', async () => {
      const response = await preview(Buffer.from(GERMAN), { decimal_mark: '.', date_order: 'ymd' }).expect(
        200,
      );
      expect(response.body.dialect).toMatchObject({ encoding: 'utf-8', decimal: '.', dateOrder: 'ymd' });
      expect(response.body.columns.map((column: { type: string }) => column.type)).toEqual([
        'text',
        'text',
        'text',
      ]);
    });

    it('types the columns of a large file from its start', async () => {
      const line = 'alpha,12.5,2024-01-31\n';
      const big = Buffer.from('name,amount,day\n' + line.repeat(200_000));
      const response = await preview(big).expect(200);
      expect(response.body.rows).toHaveLength(20);
      expect(response.body.columns.map((column: { type: string }) => column.type)).toEqual([
        'text',
        'numeric',
        'date',
      ]);
    });

    it('refuses a bad dialect field and anonymous callers', async () => {
      const bad = await preview(Buffer.from('a,b\n1,2\n'), { date_order: 'dym' }).expect(400);
      expect(bad.body.message).toBe('date_order must be one of the following values: ymd, dmy, mdy');
      const request = await import('supertest');
      await request
        .default(testApp.app.getHttpServer())
        .post('/api/assets/upload-preview')
        .set('Origin', TEST_ORIGIN)
        .attach('file', Buffer.from('a,b\n1,2\n'), 'data.csv')
        .expect(401);
    });
  });

  it.each([
    [{ delimiter: ':' }, 'delimiter must be one of: ,, ;, tab, |.'],
    [{ column_types: 'text' }, 'column_types lists 1 type, but the file has 2 columns.'],
  ])('refuses the form %p with a message naming the field', async (fields, message) => {
    const response = await postCsv(agent, 'a,b\n1,2\n', { title: 'Bad form', ...fields });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe(message);
    expect(await orphanDatasetTables(testApp.dataSource)).toEqual([]);
  });
});
