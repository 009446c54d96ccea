import { get, IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { brotliDecompressSync, createGunzip, gunzipSync } from 'node:zlib';
import { formerEntitySetName } from '../../src/odata/odata-entity-set';
import { ListeningApp, startListeningApp } from '../odata/odata.support';
import { createDataset, createUserWithApiKey, TestColumn } from '../stream/stream.factory';

const COLUMNS: TestColumn[] = [
  { name: 'id', label: 'ID', sqlType: 'integer', type: 'integer' },
  { name: 'code', label: 'Code', sqlType: 'text', type: 'text' },
  { name: 'amount', label: 'Amount', sqlType: 'numeric(14,4)', type: 'numeric' },
  { name: 'day', label: 'Day', sqlType: 'date', type: 'date' },
];
const ROWS = 3_000;
const ROWS_SQL = `SELECT n, md5(n::text), n * 1.0625, DATE '2024-01-01' + n % 366 FROM generate_series(1, ${ROWS}) n`;

/** Where a gzip member's header keeps its extra flags (RFC 1952), and their value for the fastest level. */
const GZIP_XFL_BYTE = 8;
const GZIP_XFL_FASTEST = 4;

interface RawAnswer {
  status: number;
  headers: IncomingMessage['headers'];
  /** The bytes as they crossed the wire. */
  body: Buffer;
}

/** A GET that hands back the body exactly as sent: no client here decodes it on the way. */
function rawGet(url: string, headers: Record<string, string>): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => get(url, { headers }, resolve).on('error', reject));
}

async function rawAnswer(url: string, headers: Record<string, string>): Promise<RawAnswer> {
  const response = await rawGet(url, headers);
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return { status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) };
}

describe('API answers compressed for clients that accept it', () => {
  let app: ListeningApp;
  let apiKey: string;
  let datasetId: string;
  let setName: string;

  beforeAll(async () => {
    app = await startListeningApp();
    const owner = await createUserWithApiKey(app.testApp.dataSource);
    apiKey = owner.apiKey;
    const dataset = await createDataset(app.testApp.dataSource, {
      ownerId: owner.user.id,
      title: 'Compressed rows',
      withRowId: true,
      columns: COLUMNS,
      rowsSql: ROWS_SQL,
    });
    datasetId = dataset.id;
    setName = formerEntitySetName({ kind: 'asset', id: dataset.id });
    // Enough public datasets that the catalogue's JSON is worth compressing.
    for (let index = 0; index < 8; index++) {
      await createDataset(app.testApp.dataSource, {
        ownerId: owner.user.id,
        title: `Catalogue entry ${index} with a title long enough to count`,
        columns: COLUMNS.slice(0, 1),
      });
    }
  });
  afterAll(async () => {
    await app.close();
  });

  const ANSWERS: Array<[string, () => string]> = [
    ['a CSV stream (the download)', () => `/api/stream/data/${datasetId}?format=csv`],
    ['a JSON stream', () => `/api/stream/data/${datasetId}?format=json`],
    ['a JSON Lines stream', () => `/api/stream/data/${datasetId}?format=ndjson`],
    ['the general CSV link', () => `/api/stream/data?format=csv`],
    ['an OData page', () => `/api/odata/${setName}?$orderby=day+desc&$count=true`],
    ['the OData $metadata', () => `/api/odata/$metadata`],
    ['a JSON endpoint (the catalogue)', () => `/api/assets?limit=50`],
  ];

  it.each(ANSWERS)(
    'sends %s gzipped or brotli-compressed, decoding to the same bytes',
    async (_name, path) => {
      const url = `${app.origin}${path()}`;
      const key = { 'X-API-Key': apiKey };
      /**
       * The answer with `encoding`, and the plain answer as it was both just before and just after
       * it: the catalogue is shared with the suites running beside this one, which may change it.
       */
      const between = async (encoding: string) => {
        for (let attempt = 0; attempt < 5; attempt++) {
          const before = await rawAnswer(url, key);
          const encoded = await rawAnswer(url, { ...key, 'Accept-Encoding': encoding });
          const after = await rawAnswer(url, key);
          if (before.body.equals(after.body)) return { identity: before, encoded };
        }
        throw new Error(`${url} changed on every attempt`);
      };
      const { identity, encoded: gzip } = await between('gzip, deflate');
      expect(identity.status).toBe(200);
      expect(identity.headers['content-encoding']).toBeUndefined();
      expect(identity.headers.vary).toMatch(/Accept-Encoding/i);
      expect(identity.body.length).toBeGreaterThan(1024);

      expect(gzip.status).toBe(200);
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gzip.headers.vary).toMatch(/Accept-Encoding/i);
      expect(gzip.headers['content-type']).toBe(identity.headers['content-type']);
      expect(gzip.body.length).toBeLessThan(identity.body.length / 2);
      expect(gunzipSync(gzip.body).equals(identity.body)).toBe(true);
      // The gzip header's XFL byte: 4 is zlib's mark for its fastest level (1), the level of `gzip -1`.
      expect(gzip.body[GZIP_XFL_BYTE]).toBe(GZIP_XFL_FASTEST);

      const { identity: plain, encoded: brotli } = await between('br');
      expect(brotli.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(brotli.body).equals(plain.body)).toBe(true);
    },
  );

  it('sends an answer under 1 KiB (an OData error) as it is, still in its error shape', async () => {
    const answer = await rawAnswer(`${app.origin}/api/odata/${setName}?$orderby=nothing`, {
      'X-API-Key': apiKey,
      'Accept-Encoding': 'gzip',
    });
    expect(answer.status).toBe(400);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.body.length).toBeLessThan(1024);
    expect(JSON.parse(answer.body.toString()).error.message).toContain('has no property nothing');
  });

  it('keeps back-pressure: a gzip client that stops reading holds the COPY, and then gets every row', async () => {
    const big = await createDataset(app.testApp.dataSource, {
      ownerId: (
        await app.testApp.dataSource.query(`SELECT owner_id FROM assets WHERE id = $1`, [datasetId])
      )[0].owner_id,
      columns: COLUMNS.slice(0, 2),
      // md5 text compresses about twofold only: tens of megabytes on the wire, more than socket buffers hold.
      rowsSql: `SELECT n, md5(n::text) || md5((n + 1)::text) FROM generate_series(1, 400000) n`,
    });
    const response = await rawGet(`${app.origin}/api/stream/data/${big.id}?format=ndjson`, {
      'X-API-Key': apiKey,
      'Accept-Encoding': 'gzip',
    });
    expect(response.headers['content-encoding']).toBe('gzip');
    response.pause();
    await sleep(2_000);
    const copying = await app.testApp.dataSource.query(
      `SELECT count(*)::int AS count FROM pg_stat_activity WHERE query LIKE 'COPY %' AND query LIKE $1`,
      [`%${big.tableName}%`],
    );
    expect(copying[0].count).toBe(1);
    const gunzip = createGunzip();
    response.pipe(gunzip);
    let lines = 0;
    let rest = '';
    for await (const chunk of gunzip) {
      const text = rest + (chunk as Buffer).toString();
      const parts = text.split('\n');
      rest = parts.pop()!;
      lines += parts.length;
    }
    expect(rest).toBe('');
    expect(lines).toBe(400_000);
  });
});
