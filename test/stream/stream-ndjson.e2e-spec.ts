import { createServer, get, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { createTestApp, TestApp } from '../support/test-app';
import { createDataset, createUserWithApiKey, TestColumn } from './stream.factory';

const TRICKY_TEXT = 'line one\nline two\r\n "quoted" \\ back\\slash, ünïcödé 😀 \u2028 end';

const COLUMNS: TestColumn[] = [
  { name: 'n', label: 'Number', sqlType: 'integer', type: 'integer' },
  { name: 'note', label: 'Note', sqlType: 'text', type: 'text' },
  { name: 'day', label: 'Day', sqlType: 'date', type: 'date' },
];

/**
 * Reads a JSON Lines answer over a real socket the way a script would: one line at a time,
 * each parsed on its own as it arrives.
 */
async function readLines(
  server: Server,
  path: string,
  onRecord: (record: Record<string, unknown>) => void,
): Promise<IncomingMessage> {
  const { port } = server.address() as AddressInfo;
  const response = await new Promise<IncomingMessage>((resolve, reject) =>
    get({ host: '127.0.0.1', port, path }, resolve).on('error', reject),
  );
  for await (const line of createInterface({ input: response, crlfDelay: Infinity })) {
    onRecord(JSON.parse(line) as Record<string, unknown>);
  }
  return response;
}

describe('stream links as JSON Lines (format=ndjson)', () => {
  let testApp: TestApp;
  let server: Server;

  beforeAll(async () => {
    testApp = await createTestApp();
    server = createServer(testApp.app.getHttpAdapter().getInstance());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await testApp.close();
  });

  it('answers one JSON object per line, keyed by the labels, that parses line by line', async () => {
    const { user, apiKey } = await createUserWithApiKey(testApp.dataSource);
    const dataset = await createDataset(testApp.dataSource, {
      ownerId: user.id,
      columns: COLUMNS,
      rows: [
        [1, TRICKY_TEXT, '2024-03-01'],
        [2, null, null],
      ],
    });
    const records: Array<Record<string, unknown>> = [];
    const response = await readLines(
      server,
      `/api/stream/data/${dataset.id}?format=ndjson&api_key=${apiKey}`,
      (record) => records.push(record),
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(records).toEqual([
      { Number: 1, Note: TRICKY_TEXT, Day: '2024-03-01' },
      { Number: 2, Note: null, Day: null },
    ]);
  });

  it('streams a large table completely, every line a record in insertion order', async () => {
    const { user, apiKey } = await createUserWithApiKey(testApp.dataSource);
    const rowCount = 60_000;
    const dataset = await createDataset(testApp.dataSource, {
      ownerId: user.id,
      columns: COLUMNS,
      rowsSql: `SELECT i, 'row ' || i, DATE '2024-01-01' + (i % 365) FROM generate_series(1, ${rowCount}) i`,
    });
    let expected = 1;
    await readLines(server, `/api/stream/data/${dataset.id}?format=ndjson&api_key=${apiKey}`, (record) => {
      if (record.Number !== expected) throw new Error(`line ${expected} holds ${JSON.stringify(record)}`);
      expected++;
    });
    expect(expected - 1).toBe(rowCount);
  });

  it('pages with limit and offset, and answers an empty body for no rows', async () => {
    const { user, apiKey } = await createUserWithApiKey(testApp.dataSource);
    const dataset = await createDataset(testApp.dataSource, {
      ownerId: user.id,
      columns: COLUMNS,
      rowsSql: `SELECT i, NULL, NULL FROM generate_series(1, 10) i`,
    });
    const page = await testApp.http
      .get(`/api/stream/data/${dataset.id}`)
      .query({ api_key: apiKey, format: 'ndjson', limit: 2, offset: 3 })
      .expect(200);
    expect(page.text).toBe('{"Number":4,"Note":null,"Day":null}\n{"Number":5,"Note":null,"Day":null}\n');
    const past = await testApp.http
      .get(`/api/stream/data/${dataset.id}`)
      .query({ api_key: apiKey, format: 'ndjson', offset: 50 })
      .expect(200);
    expect(past.text).toBe('');
  });

  it('tags every line of the general link with its dataset', async () => {
    const { user, apiKey } = await createUserWithApiKey(testApp.dataSource);
    const dataset = await createDataset(testApp.dataSource, {
      ownerId: user.id,
      title: 'Tagged',
      columns: COLUMNS,
      rows: [[7, 'seven', '2024-07-07']],
    });
    const records: Array<Record<string, unknown>> = [];
    await readLines(server, `/api/stream/data?format=ndjson&api_key=${apiKey}`, (record) =>
      records.push(record),
    );
    expect(records).toEqual([
      { dataset_id: dataset.id, dataset_title: 'Tagged', Number: 7, Note: 'seven', Day: '2024-07-07' },
    ]);
  });

  it('names ndjson among the formats when refusing an unknown one', async () => {
    const { apiKey } = await createUserWithApiKey(testApp.dataSource);
    const response = await testApp.http
      .get('/api/stream/data')
      .query({ api_key: apiKey, format: 'xml' })
      .expect(400);
    expect(response.body.message).toBe('format must be json, ndjson, csv, parquet or xlsx');
  });
});
