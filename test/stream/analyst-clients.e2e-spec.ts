import { formerEntitySetName } from '../../src/odata/odata-entity-set';
import { ListeningApp, startListeningApp } from '../odata/odata.support';
import { createDataset, createUserWithApiKey, TestColumn } from './stream.factory';
import { readParquet } from './support/read-parquet';
import { readParquetWithArrowRs } from './support/read-parquet-arrow';
import { readParquetWithDuckDb } from './support/read-parquet-duckdb';
import { readWithDuckDb } from './support/read-with-duckdb';

/**
 * The values analysts lose first when a reader guesses: a code with leading zeros, an empty text
 * apart from a missing one, and integers a double cannot hold. docs/stream-howto.md names the
 * reader calls that keep them; these are the answers those calls rely on.
 */
const COLUMNS: TestColumn[] = [
  { name: 'code', label: 'code', sqlType: 'text', type: 'text' },
  { name: 'big', label: 'big', sqlType: 'bigint', type: 'integer' },
];
const ROWS = [
  ['00123', '1234567890123456789'],
  ['', '-9223372036854775808'],
  [null, null],
  ['0', '9007199254740993'],
];

describe('answers that analyst clients read without losing a value', () => {
  let app: ListeningApp;
  let apiKey: string;
  let datasetId: string;

  beforeAll(async () => {
    app = await startListeningApp();
    const owner = await createUserWithApiKey(app.testApp.dataSource);
    apiKey = owner.apiKey;
    const dataset = await createDataset(app.testApp.dataSource, {
      ownerId: owner.user.id,
      withRowId: true,
      columns: COLUMNS,
      rows: ROWS,
    });
    datasetId = dataset.id;
  });
  afterAll(async () => {
    await app.close();
  });

  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${app.origin}${path}`, { headers: { 'X-API-Key': apiKey, ...headers } });

  it.each(['snappy', 'zstd', 'gzip', 'none'])(
    'keeps codes as text, "" apart from null and 19-digit integers in Parquet (compression=%s), for every reader',
    async (compression) => {
      const answer = await get(`/api/stream/data/${datasetId}?format=parquet&compression=${compression}`);
      expect(answer.status).toBe(200);
      const body = Buffer.from(await answer.arrayBuffer());
      const expected = [
        { code: '00123', big: 1234567890123456789n },
        { code: '', big: -9223372036854775808n },
        { code: null, big: null },
        { code: '0', big: 9007199254740993n },
      ];
      const parquet = await readParquet(body);
      expect(parquet.rows).toEqual(expected);
      expect(parquet.columns.map((column) => [column.name, column.type])).toEqual([
        ['code', 'BYTE_ARRAY'],
        ['big', 'INT64'],
      ]);
      expect(readParquetWithArrowRs(body)).toEqual(expected);
      expect(await readParquetWithDuckDb(body)).toEqual(expected);
    },
  );

  it('writes "" quoted and a missing value as nothing in CSV, codes and long integers as written', async () => {
    // What DuckDB's read_csv(..., types = {...}, allow_quoted_nulls = false) reads back apart.
    const answer = await get(`/api/stream/data/${datasetId}?format=csv`);
    expect(await answer.text()).toBe(
      'code,big\n00123,1234567890123456789\n"",-9223372036854775808\n,\n0,9007199254740993\n',
    );
  });

  it('reads back every value in DuckDB with the read_csv call the guide gives', async () => {
    const answer = await get(`/api/stream/data/${datasetId}?format=csv`);
    const rows = await readWithDuckDb(
      Buffer.from(await answer.arrayBuffer()),
      'table.csv',
      `SELECT * FROM read_csv($file, header = true,
                              types = {'code': 'VARCHAR', 'big': 'BIGINT'},
                              allow_quoted_nulls = false)`,
    );
    expect(rows).toEqual([
      { code: '00123', big: 1234567890123456789n },
      { code: '', big: -9223372036854775808n },
      { code: null, big: null },
      { code: '0', big: 9007199254740993n },
    ]);
  });

  it('pages OData by following each @odata.nextLink as given, every digit kept as text', async () => {
    const setName = formerEntitySetName({ kind: 'asset', id: datasetId });
    const headers = {
      Accept: 'application/json;odata.metadata=minimal;IEEE754Compatible=true',
      Prefer: 'odata.maxpagesize=1',
    };
    const rows: Array<Record<string, unknown>> = [];
    let next: string | undefined = `${app.origin}/api/odata/${setName}?$select=code,big`;
    let pages = 0;
    while (next) {
      // The link as the server wrote it, unchanged: what a client that follows next links sends.
      const answer = await fetch(next, { headers: { 'X-API-Key': apiKey, ...headers } });
      expect(answer.status).toBe(200);
      const page = (await answer.json()) as {
        value: Array<Record<string, unknown>>;
        '@odata.nextLink'?: string;
      };
      rows.push(...page.value);
      next = page['@odata.nextLink'];
      if (++pages > ROWS.length + 1) throw new Error('next links never end');
    }
    expect(pages).toBe(ROWS.length);
    expect(rows.map(({ code, big }) => ({ code, big }))).toEqual([
      { code: '00123', big: '1234567890123456789' },
      { code: '', big: '-9223372036854775808' },
      { code: null, big: null },
      { code: '0', big: '9007199254740993' },
    ]);
  });
});
