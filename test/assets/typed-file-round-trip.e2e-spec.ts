import ExcelJS from 'exceljs';
import { parquetWriteBuffer, schemaFromColumnData } from 'hyparquet-writer';
import type { Response } from 'supertest';
import { postCsv } from '../factories/asset.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { setApiKey } from '../stream/stream.factory';
import { readParquet } from '../stream/support/read-parquet';
import { createTestApp, TestApp } from '../support/test-app';

type Agent = Awaited<ReturnType<typeof createLoggedInUser>>['agent'];

const DAY_MS = 86_400_000;
const NOTE = 'Zürich, "quoted" 😀';

function binary(response: Response, callback: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  response.on('data', (chunk: Buffer) => chunks.push(chunk));
  response.on('end', () => callback(null, Buffer.concat(chunks)));
}

/**
 * A file uploaded as .parquet or .xlsx and downloaded again in the same format: every column
 * type the file can carry comes back as that type with every value as it went in.
 */
describe('Parquet and Excel round trips, column type by column type', () => {
  let testApp: TestApp;
  let agent: Agent;
  let apiKey: string;

  beforeAll(async () => {
    testApp = await createTestApp();
    const uploader = await createLoggedInUser(testApp);
    agent = uploader.agent;
    apiKey = await setApiKey(testApp.dataSource, uploader.user.id);
  });
  afterAll(() => testApp.close());

  async function uploadThenDownload(file: Buffer, fileName: string, format: string) {
    const upload = await postCsv(agent, file, { title: `Round trip ${fileName}` }, fileName);
    expect(upload.status).toBe(201);
    const id = upload.body.id as string;
    const detail = await agent.get(`/api/assets/${id}`).expect(200);
    const download = await testApp.http
      .get(`/api/stream/data/${id}`)
      .query({ format, api_key: apiKey })
      .buffer(true)
      .parse(binary as never)
      .expect(200);
    return {
      types: detail.body.columns.map((column: { type: string }) => column.type) as string[],
      rowCount: detail.body.row_count as number,
      body: download.body as Buffer,
    };
  }

  it('gives back a Parquet file’s integers, decimals, booleans, dates, timestamps and text exactly', async () => {
    const columnData = [
      { name: 'count', data: [10n, -9007199254740993n, null], type: 'INT64' as const },
      { name: 'level', data: [1.25, -0.5, null], type: 'DOUBLE' as const },
      { name: 'ok', data: [true, false, null], type: 'BOOLEAN' as const },
      { name: 'day', data: [new Date(Date.UTC(2024, 1, 29)), new Date(Date.UTC(1969, 11, 31)), null] },
      {
        name: 'at',
        data: [new Date(Date.UTC(2025, 0, 2, 3, 4, 5, 678)), new Date(0), null],
        type: 'TIMESTAMP' as const,
      },
      { name: 'note', data: [NOTE, '', null], type: 'STRING' as const },
    ];
    // A DATE column has no shorthand type: its schema element is given whole.
    const schema = schemaFromColumnData({
      columnData,
      schemaOverrides: {
        day: {
          name: 'day',
          type: 'INT32',
          converted_type: 'DATE',
          logical_type: { type: 'DATE' },
          repetition_type: 'OPTIONAL',
        },
      },
    });
    const file = Buffer.from(
      parquetWriteBuffer({ columnData: columnData.map(({ name, data }) => ({ name, data })), schema }),
    );
    const { types, body } = await uploadThenDownload(file, 'levels.parquet', 'parquet');
    expect(types).toEqual(['integer', 'numeric', 'boolean', 'date', 'timestamptz', 'text']);
    const parquet = await readParquet(body);
    expect(parquet.columns.map((column) => [column.name, column.type])).toEqual([
      ['count', 'INT64'],
      ['level', expect.any(String)],
      ['ok', 'BOOLEAN'],
      ['day', 'INT32'],
      ['at', 'INT64'],
      ['note', 'BYTE_ARRAY'],
    ]);
    expect(parquet.columns[1]).toMatchObject({ logicalType: { type: 'DECIMAL', scale: 2 } });
    expect(parquet.columns[3]).toMatchObject({ logicalType: { type: 'DATE' } });
    expect(parquet.columns[4]).toMatchObject({ logicalType: { type: 'TIMESTAMP', isAdjustedToUTC: true } });
    expect(parquet.rows).toEqual([
      {
        count: 10n,
        level: '1.25',
        ok: true,
        day: Date.UTC(2024, 1, 29) / DAY_MS,
        at: BigInt(Date.UTC(2025, 0, 2, 3, 4, 5, 678)) * 1000n,
        note: NOTE,
      },
      { count: -9007199254740993n, level: '-0.50', ok: false, day: -1, at: 0n, note: '' },
      { count: null, level: null, ok: null, day: null, at: null, note: null },
    ]);
  });

  it('gives back an Excel sheet’s numbers, booleans, dates, date-times and text as the same cells', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Figures');
    sheet.addRow(['Count', 'Amount', 'Paid', 'Day', 'At', 'Note']);
    sheet.addRow([
      42,
      12.5,
      true,
      new Date(Date.UTC(2024, 11, 31)),
      new Date(Date.UTC(2025, 0, 2, 8, 30)),
      NOTE,
    ]);
    sheet.addRow([
      -7,
      -0.25,
      false,
      new Date(Date.UTC(2000, 0, 1)),
      new Date(Date.UTC(1999, 11, 31, 23, 59, 59)),
      'b',
    ]);
    sheet.addRow([null, null, null, null, null, null]);
    const { types, rowCount, body } = await uploadThenDownload(
      Buffer.from(await book.xlsx.writeBuffer()),
      'figures.xlsx',
      'xlsx',
    );
    // A column of midnights is a date column; one with a time of day a timestamp column.
    expect(types).toEqual(['integer', 'numeric', 'boolean', 'date', 'timestamp', 'text']);
    const back = new ExcelJS.Workbook();
    await back.xlsx.load(body as never);
    const values = back.worksheets[0]
      .getSheetValues()
      .slice(1)
      .map((row) => (row as unknown[]).slice(1));
    expect(values).toEqual([
      ['Count', 'Amount', 'Paid', 'Day', 'At', 'Note'],
      [42, 12.5, true, new Date(Date.UTC(2024, 11, 31)), new Date(Date.UTC(2025, 0, 2, 8, 30)), NOTE],
      [-7, -0.25, false, new Date(Date.UTC(2000, 0, 1)), new Date(Date.UTC(1999, 11, 31, 23, 59, 59)), 'b'],
    ]);
    // The row of empty cells is kept, and written back as a row without cells.
    expect(rowCount).toBe(3);
  });
});
