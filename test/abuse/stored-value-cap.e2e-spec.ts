import { randomBytes } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo, connect } from 'node:net';
import ExcelJS from 'exceljs';
import { parquetWriteBuffer } from 'hyparquet-writer';
import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { dataTable, datasetTableName } from '../../src/database/data-tables/data-table-names';
import { MAX_STORED_VALUE_BYTES } from '../../src/query/run/row-size-cap';
import {
  assetCount,
  expectNoIngestConnections,
  orphanDatasetTables,
  postCsv,
  uploadDataset,
} from '../factories/asset.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { sessionCookie } from '../users/support/cookies';

type Agent = TestAgent<Test>;

const CAP = MAX_STORED_VALUE_BYTES;
const TOO_LARGE = (line: number, column: string) =>
  `Line ${line}, column "${column}": a value may be at most 16 MB.`;

/**
 * No stored value may pass 16 MB, whichever way the data comes in: one huge cell would weigh on
 * every query, stream and export of the dataset, in the database and the shared API process.
 */
/** A cell far past the cap, streamed in without ever being written whole. */
const HUGE_CELL_BYTES = 600 * 1024 * 1024;

describe('stored values are capped at 16 MB on upload, refresh, workbook and Parquet upload', () => {
  let testApp: TestApp;
  let agent: Agent;
  let userId: string;
  let cookie: string;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    testApp = await createTestApp();
    const user = await createLoggedInUser(testApp, { name: 'Cal Capped' });
    agent = user.agent;
    userId = user.user.id;
    const login = await testApp.http
      .post('/api/users/login')
      .set('Origin', TEST_ORIGIN)
      .send({ email: user.user.email, password: user.user.password })
      .expect(200);
    cookie = sessionCookie(login.headers);
    server = createServer(testApp.app.getHttpAdapter().getInstance());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await testApp.close();
  });

  /** Length in bytes of column b of the dataset's rows, in row order, read in the database. */
  async function lengthsOf(id: string): Promise<number[]> {
    const rows: Array<{ bytes: number }> = await testApp.dataSource.query(
      `SELECT octet_length(b)::int AS bytes FROM ${dataTable(datasetTableName(id))} ORDER BY a`,
    );
    return rows.map((row) => row.bytes);
  }

  async function expectNothingLeft(assetsBefore: number): Promise<void> {
    expect(await assetCount(testApp.dataSource, userId)).toBe(assetsBefore);
    expect(await orphanDatasetTables(testApp.dataSource)).toEqual([]);
    await expectNoIngestConnections(testApp);
  }

  describe('POST assets/upload-csv', () => {
    it('refuses a cell one byte past 16 MB with 400, naming line and column, and leaves nothing', async () => {
      const before = await assetCount(testApp.dataSource, userId);
      const csv = `a,b\n1,short\n2,${'v'.repeat(CAP + 1)}\n3,short\n`;
      const response = await postCsv(agent, csv, { title: 'Huge cell' });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe(TOO_LARGE(3, 'b'));
      await expectNothingLeft(before);
    });

    it('counts a quoted cell as stored: quotes around it do not count, doubled quotes once', async () => {
      const before = await assetCount(testApp.dataSource, userId);
      const over = `"${'""'.repeat(5)}${'v'.repeat(CAP - 4)}"`;
      const response = await postCsv(agent, `a,b\n1,${over}\n`, { title: 'Quoted huge cell' });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe(TOO_LARGE(2, 'b'));
      await expectNothingLeft(before);
    });

    it('takes a cell of exactly 16 MB, plain or quoted, and gives it back exactly', async () => {
      const plain = 'é'.repeat(CAP / 2);
      const quoted = `"${'""'.repeat(5)}${'v'.repeat(CAP - 5)}"`;
      const response = await postCsv(agent, `a,b\n1,${plain}\n2,${quoted}\n3,x\n`, { title: 'At the cap' });
      expect(response.status).toBe(201);
      const id = response.body.id as string;
      expect(await lengthsOf(id)).toEqual([CAP, CAP, 1]);
      const [{ same }] = await testApp.dataSource.query(
        `SELECT b = $1 AND (SELECT b FROM ${dataTable(datasetTableName(id))} WHERE a = 2) = $2 AS same FROM ${dataTable(datasetTableName(id))} WHERE a = 1`,
        [plain, `${'"'.repeat(5)}${'v'.repeat(CAP - 5)}`],
      );
      expect(same).toBe(true);
    });

    it.each([
      ['a comma-separated file', {}, ','],
      ['a file whose numbers are rewritten (decimal comma)', { delimiter: ';', decimal_mark: ',' }, ';'],
    ])(
      'refuses a 600 MB cell of %s streamed in, with flat memory, leaving nothing',
      async (_kind, fields, delimiter) => {
        const before = await assetCount(testApp.dataSource, userId);
        const rssBefore = process.memoryUsage().rss;
        const outcome = await streamHugeCell(port, cookie, HUGE_CELL_BYTES, fields, delimiter);
        expect(outcome.answer).toMatch(/^HTTP\/1\.1 400 /);
        expect(outcome.answer).toContain(JSON.stringify(TOO_LARGE(2, 'b')));
        // The cell is measured as it passes, never held: the process does not grow by the cell.
        // Held, 600 MB would take at least that much again; the bound leaves room for what the
        // test's own process (client, server and garbage not yet collected) holds meanwhile.
        expect(outcome.peakRss - rssBefore).toBeLessThan(HUGE_CELL_BYTES / 3);
        await expectNothingLeft(before);
      },
    );
  });

  describe('POST assets/{id}/refresh', () => {
    const refresh = (id: string, csv: string, mode: string) =>
      agent
        .post(`/api/assets/${id}/refresh`)
        .set('Origin', TEST_ORIGIN)
        .field('mode', mode)
        .attach('file', Buffer.from(csv), 'next.csv');

    it.each(['replace', 'append'])(
      'refuses a %s with a cell past 16 MB and keeps the dataset as it was',
      async (mode) => {
        const id = await uploadDataset(agent, { title: `Refresh ${mode}` }, 'a,b\n1,x\n');
        const response = await refresh(id, `a,b\n5,${'v'.repeat(CAP + 1)}\n`, mode);
        expect(response.status).toBe(400);
        expect(response.body.error).toBe(TOO_LARGE(2, 'b'));
        expect(await lengthsOf(id)).toEqual([1]);
        const versions = await testApp.dataSource.query(
          `SELECT mode FROM dataset_versions WHERE asset_id = $1`,
          [id],
        );
        expect(versions).toEqual([{ mode: 'initial' }]);
        expect(await orphanDatasetTables(testApp.dataSource)).toEqual([]);
        await expectNoIngestConnections(testApp);
      },
    );

    it.each([
      ['replace', [CAP]],
      ['append', [1, CAP]],
    ])('takes a %s with a cell of exactly 16 MB', async (mode, lengths) => {
      const id = await uploadDataset(agent, { title: `Refresh ${mode} at the cap` }, 'a,b\n1,x\n');
      await refresh(id, `a,b\n5,${'v'.repeat(CAP)}\n`, mode).expect(200);
      expect(await lengthsOf(id)).toEqual(lengths);
    });
  });

  describe('.xlsx upload', () => {
    /** A workbook with header a, b and one row; the text random, so the file does not pack small. */
    async function workbook(bytes: number): Promise<Buffer> {
      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet('Data');
      sheet.addRow(['a', 'b']);
      sheet.addRow([
        1,
        randomBytes(Math.ceil((bytes * 3) / 4))
          .toString('base64')
          .slice(0, bytes),
      ]);
      return Buffer.from(await book.xlsx.writeBuffer());
    }

    it('refuses a cell past 16 MB and leaves nothing', async () => {
      const before = await assetCount(testApp.dataSource, userId);
      const response = await postCsv(agent, await workbook(CAP + 1), { title: 'Huge sheet' }, 'huge.xlsx');
      expect(response.status).toBe(400);
      expect(response.body.error).toBe(TOO_LARGE(2, 'b'));
      await expectNothingLeft(before);
    }, 120_000);

    it('takes a cell of exactly 16 MB', async () => {
      const response = await postCsv(agent, await workbook(CAP), { title: 'Full sheet' }, 'full.xlsx');
      expect(response.status).toBe(201);
      expect(await lengthsOf(response.body.id)).toEqual([CAP]);
    }, 120_000);
  });

  describe('.parquet upload', () => {
    /** A Parquet file of columns a (integer) and b (text) with one row; b random, so it does not pack small. */
    function parquet(bytes: number): Buffer {
      const text = randomBytes(Math.ceil((bytes * 3) / 4))
        .toString('base64')
        .slice(0, bytes);
      return Buffer.from(
        parquetWriteBuffer({
          columnData: [
            { name: 'a', data: [1], type: 'INT32' },
            { name: 'b', data: [text], type: 'STRING' },
          ],
        }),
      );
    }

    it('refuses a value past 16 MB and leaves nothing', async () => {
      const before = await assetCount(testApp.dataSource, userId);
      const response = await postCsv(agent, parquet(CAP + 1), { title: 'Huge Parquet' }, 'huge.parquet');
      expect(response.status).toBe(400);
      expect(response.body.error).toBe(TOO_LARGE(2, 'b'));
      await expectNothingLeft(before);
    });

    it('takes a value of exactly 16 MB', async () => {
      const response = await postCsv(agent, parquet(CAP), { title: 'Full Parquet' }, 'full.parquet');
      expect(response.status).toBe(201);
      expect(await lengthsOf(response.body.id)).toEqual([CAP]);
    });
  });
});

interface StreamOutcome {
  answer: string;
  /** Largest resident set of this process (the app runs in it) while the upload was under way. */
  peakRss: number;
}

/**
 * POSTs a CSV whose second column's first value is `cellBytes` long, generated as it is sent
 * (64 kB written again and again), over a raw socket so that nothing buffers the body.
 */
function streamHugeCell(
  port: number,
  cookie: string,
  cellBytes: number,
  fields: Record<string, string>,
  delimiter: string,
): Promise<StreamOutcome> {
  const boundary = 'cellcapboundary';
  const form = Object.entries({ title: 'Streamed cell', ...fields })
    .map(
      ([name, value]) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    )
    .join('');
  const head = Buffer.from(
    form +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.csv"\r\n` +
      `Content-Type: text/csv\r\n\r\na${delimiter}b\n1${delimiter}`,
  );
  const tail = Buffer.from(`\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(64 * 1024, 'v');
  const chunks = Math.ceil(cellBytes / chunk.length);
  const length = head.length + chunks * chunk.length + tail.length;
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let peakRss = process.memoryUsage().rss;
    let sent = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve({ answer, peakRss });
    };
    socket.on('data', (data: Buffer) => {
      answer += data.toString('utf8');
      if (answer.includes('\r\n\r\n') && answer.endsWith('}')) finish();
    });
    socket.on('close', finish);
    socket.on('error', finish);
    socket.write(
      [
        'POST /api/assets/upload-csv HTTP/1.1',
        'Host: 127.0.0.1',
        `Origin: ${TEST_ORIGIN}`,
        `Cookie: ${cookie}`,
        `Content-Type: multipart/form-data; boundary=${boundary}`,
        `Content-Length: ${length}`,
        '',
        '',
      ].join('\r\n'),
    );
    socket.write(head);
    const sendMore = () => {
      while (!done && sent < chunks) {
        sent++;
        if (sent % 64 === 0) peakRss = Math.max(peakRss, process.memoryUsage().rss);
        if (!socket.write(chunk)) return void socket.once('drain', sendMore);
      }
      if (!done) socket.write(tail);
    };
    sendMore();
  });
}
