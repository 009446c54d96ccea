import ExcelJS from 'exceljs';
import { parquetMetadata } from 'hyparquet';
import type { FileMetaData } from 'hyparquet';
import { ByteWriter, parquetWriteBuffer } from 'hyparquet-writer';
import { writeMetadata } from 'hyparquet-writer/src/metadata.js';
import JSZip from 'jszip';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectNoIngestConnections, postCsv } from '../factories/asset.factory';
import { createLoggedInUser, TestUser } from '../factories/user.factory';
import { createTestApp, TestApp } from '../support/test-app';
import { expectUnchanged } from './support/footprint';

type Agent = Awaited<ReturnType<typeof createLoggedInUser>>['agent'];

/** With MAX_UPLOAD_MB=1 the default MAX_EXPANDED_UPLOAD_MB is 4: the bound every case passes. */
const UNPACKED_WORKBOOK =
  'The workbook unpacks to more than 4 MB (at most 100 times its own size, and 4 MB); it was not loaded.';
const UNPACKED_PARQUET =
  'The Parquet file unpacks to more than 4 MB (at most 100 times its own size, and 4 MB); it was not loaded.';
const TABLE_WORKBOOK = 'The workbook holds more than 4 MB of table data once unpacked; it was not loaded.';
const TABLE_PARQUET = 'The Parquet file holds more than 4 MB of table data once unpacked; it was not loaded.';

/** A valid one-sheet workbook whose parts `replace` swaps for others, stored deflated. */
async function workbookWith(replace: Record<string, string>): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  book.addWorksheet('Data').addRow(['name', 'amount']);
  const zip = await JSZip.loadAsync(await book.xlsx.writeBuffer());
  for (const [part, text] of Object.entries(replace)) zip.file(part, text);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 9 } });
}

function sheetXml(rows: string, dimension = 'A1:B1'): string {
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
    '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
    `<dimension ref="${dimension}"/><sheetData>${rows}</sheetData></worksheet>`
  );
}

const inlineCell = (reference: string, text: string) =>
  `<c r="${reference}" t="inlineStr"><is><t>${text}</t></is></c>`;

/** Column letters of a 1-based column number (1 → A, 16384 → XFD). */
function columnName(column: number): string {
  let name = '';
  for (let rest = column; rest > 0; rest = Math.floor((rest - 1) / 26))
    name = String.fromCharCode(65 + ((rest - 1) % 26)) + name;
  return name;
}

/** A Parquet file of one text column: `rows` values of `width` characters, pages of `pageSize`. */
function textParquet(rows: number, width: number, pageSize: number): Buffer {
  const data = Array.from({ length: rows }, (_, row) => String(row).padStart(width, 'x'));
  return Buffer.from(parquetWriteBuffer({ columnData: [{ name: 'note', data, type: 'STRING' }], pageSize }));
}

/** The same file with its footer (the Thrift FileMetaData) changed by `edit`: a file that lies. */
function withFooter(file: Buffer, edit: (metadata: FileMetaData) => void): Buffer {
  const bytes = new Uint8Array(file).buffer;
  const metadata = parquetMetadata(bytes);
  edit(metadata);
  const footerLength = file.readUInt32LE(file.length - 8);
  const writer = new ByteWriter();
  writeMetadata(writer, metadata as Parameters<typeof writeMetadata>[1]);
  const footer = Buffer.from(writer.getBuffer());
  const tail = Buffer.alloc(8);
  tail.writeUInt32LE(footer.length, 0);
  tail.write('PAR1', 4, 'latin1');
  return Buffer.concat([file.subarray(0, file.length - 8 - footerLength), footer, tail]);
}

/**
 * Workbooks and Parquet files small enough to upload that unpack, or claim to unpack, to far
 * more: each is refused with a 400 naming the bound, leaves no dataset, table, open ingest or
 * temporary file behind, and the server answers the next request.
 */
describe('abuse: decompression bombs in .xlsx and .parquet uploads', () => {
  let testApp: TestApp;
  let uploader: { user: TestUser; agent: Agent };
  let uploadTemp: string;
  const previousTemp = process.env.TMPDIR;

  beforeAll(async () => {
    // The upload's temporary copy lands here (the app runs in this process), apart from other suites'.
    uploadTemp = mkdtempSync(join(tmpdir(), 'packed-bombs-'));
    process.env.TMPDIR = uploadTemp;
    testApp = await createTestApp({ MAX_UPLOAD_MB: '1' });
    uploader = await createLoggedInUser(testApp);
  });
  afterAll(async () => {
    await testApp.close();
    if (previousTemp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTemp;
    rmSync(uploadTemp, { recursive: true, force: true });
  });

  it.each<{ name: string; file: () => Promise<Buffer> | Buffer; fileName: string; message: string }>([
    {
      name: 'a workbook whose shared strings inflate to 64 MB',
      file: () =>
        workbookWith({
          'xl/sharedStrings.xml':
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
            '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" uniqueCount="1">' +
            `<si><t>${'A'.repeat(64 * 1024 * 1024)}</t></si></sst>`,
        }),
      fileName: 'bomb.xlsx',
      message: UNPACKED_WORKBOOK,
    },
    {
      name: 'a workbook of three million empty rows',
      file: () =>
        workbookWith({
          'xl/worksheets/sheet1.xml': sheetXml(
            `<row r="1">${inlineCell('A1', 'name')}</row>` + '<row/>'.repeat(3_000_000),
            'A1:B3000001',
          ),
        }),
      fileName: 'empty-rows.xlsx',
      message: UNPACKED_WORKBOOK,
    },
    {
      name: 'a workbook whose 1,500-column header makes each of 3,000 one-cell rows a wide line',
      file: () =>
        workbookWith({
          'xl/worksheets/sheet1.xml': sheetXml(
            `<row r="1">${Array.from({ length: 1500 }, (_, column) =>
              inlineCell(`${columnName(column + 1)}1`, `c${column + 1}`),
            ).join('')}</row>` +
              Array.from(
                { length: 3000 },
                (_, row) => `<row r="${row + 2}">${inlineCell(`A${row + 2}`, 'x')}</row>`,
              ).join(''),
            'A1:BER3001',
          ),
        }),
      fileName: 'wide.xlsx',
      message: TABLE_WORKBOOK,
    },
    {
      name: 'a workbook declaring the whole sheet (A1:XFD1048576) with a header cell in column XFD',
      file: () =>
        workbookWith({
          'xl/worksheets/sheet1.xml': sheetXml(
            `<row r="1">${inlineCell('A1', 'name')}${inlineCell('XFD1', 'last')}</row>` +
              `<row r="1048576">${inlineCell('A1048576', 'x')}</row>`,
            'A1:XFD1048576',
          ),
        }),
      fileName: 'dimension.xlsx',
      message: 'The file has 16384 columns; at most 1500 are supported.',
    },
    {
      name: 'a Parquet file whose footer declares a trillion rows',
      file: () =>
        withFooter(textParquet(10, 4, 1024 * 1024), (metadata) => {
          metadata.num_rows = 10n ** 12n;
          metadata.row_groups[0].num_rows = 10n ** 12n;
        }),
      fileName: 'trillion.parquet',
      message: TABLE_PARQUET,
    },
    {
      name: 'a Parquet file whose footer counts more rows than its row groups hold',
      file: () =>
        withFooter(textParquet(10, 4, 1024 * 1024), (metadata) => {
          metadata.num_rows = 1000n;
        }),
      fileName: 'miscounted.parquet',
      message: 'The Parquet file declares 1000 rows but its row groups hold 10; it is damaged.',
    },
    {
      // Pages of 1 MB each, none over the page bound: only the footer's total gives it away.
      name: 'a Parquet file whose column unpacks to 6 MB',
      file: () => textParquet(6000, 1000, 1024 * 1024),
      fileName: 'large.parquet',
      message: UNPACKED_PARQUET,
    },
    {
      name: 'a Parquet file whose footer hides a 6 MB page',
      file: () =>
        withFooter(textParquet(6000, 1000, 8 * 1024 * 1024), (metadata) => {
          for (const chunk of metadata.row_groups[0].columns)
            chunk.meta_data!.total_uncompressed_size = 1000n;
        }),
      fileName: 'hidden-page.parquet',
      message: UNPACKED_PARQUET,
    },
  ])('refuses $name with a 400, leaving nothing behind', async ({ file, fileName, message }) => {
    const bytes = await file();
    expect(bytes.length).toBeLessThan(1024 * 1024);
    const started = Date.now();
    const response = await expectUnchanged(testApp.dataSource, [uploader.user.id], () =>
      postCsv(uploader.agent, bytes, { title: 'Bomb' }, fileName),
    );
    expect({ status: response.status, error: response.body.error }).toEqual({ status: 400, error: message });
    // Refused at the bound, not after unpacking everything the file claims.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(readdirSync(uploadTemp)).toEqual([]);
    await expectNoIngestConnections(testApp);
    await uploader.agent.get('/api/health').expect(200);
  });

  it('still loads a workbook and a Parquet file inside the bounds', async () => {
    const book = await workbookWith({
      'xl/worksheets/sheet1.xml': sheetXml(
        `<row r="1">${inlineCell('A1', 'name')}</row><row r="2">${inlineCell('A2', 'alpha')}</row>`,
      ),
    });
    const sheet = await postCsv(uploader.agent, book, { title: 'Small book' }, 'small.xlsx');
    expect(sheet.status).toBe(201);
    expect((await uploader.agent.get(`/api/assets/${sheet.body.id}`).expect(200)).body.row_count).toBe(1);
    // 3 MB of text: under the 4 MB table bound, at 100 times a tiny file's size allowed by the floor.
    const parquet = await postCsv(
      uploader.agent,
      textParquet(3000, 1000, 1024 * 1024),
      { title: 'Wide notes' },
      'notes.parquet',
    );
    expect(parquet.status).toBe(201);
    expect((await uploader.agent.get(`/api/assets/${parquet.body.id}`).expect(200)).body.row_count).toBe(
      3000,
    );
  });
});
