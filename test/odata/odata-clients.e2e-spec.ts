import { get, IncomingMessage } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { XMLParser } from 'fast-xml-parser';
import { formerEntitySetName } from '../../src/odata/odata-entity-set';
import {
  createConnectorInstance,
  createDataset,
  createUserWithApiKey,
  TestColumn,
} from '../stream/stream.factory';
import { CollectionPage, ListeningApp, odataClient, readAllPages, startListeningApp } from './odata.support';

const IEEE754_ACCEPT = 'application/json;odata.metadata=minimal;IEEE754Compatible=true';
const BIG_ROWS = 20_000;
const BIG_COLUMNS: TestColumn[] = [
  { name: 'id', label: 'ID', sqlType: 'integer', type: 'integer' },
  { name: 'big', label: 'Big', sqlType: 'bigint', type: 'integer' },
  { name: 'amount', label: 'Amount', sqlType: 'numeric', type: 'numeric' },
];
/** 19-digit integers (both signs, up to the int8 limits) and decimals with more digits than a double holds. */
const BIG_ROWS_SQL = `SELECT n,
    CASE WHEN n = 1 THEN 9223372036854775807 WHEN n = 2 THEN -9223372036854775808
      ELSE (CASE WHEN n % 2 = 0 THEN 1 ELSE -1 END) * (1000000000000000000 + n::int8 * 7919000000001) END,
    CASE WHEN n % 10 = 0 THEN NULL ELSE (n * 123456789.0123456789123)::numeric END
  FROM generate_series(1, ${BIG_ROWS}) n`;

const BI_ROWS = 60_001;
const BI_COLUMNS: TestColumn[] = [
  { name: 'id', label: 'ID', sqlType: 'integer', type: 'integer' },
  { name: 'region', label: 'Region', sqlType: 'text', type: 'text' },
  { name: 'day', label: 'Day', sqlType: 'date', type: 'date' },
];
const BI_ROWS_SQL = `SELECT n, CASE WHEN n % 3 = 0 THEN 'a+b' ELSE 'South ' || (n % 5) END, DATE '2024-01-01' + n % 366
  FROM generate_series(1, ${BI_ROWS}) n`;

/** What Power BI's OData.Feed sends with every request (it decodes gzip itself). */
const POWER_BI_HEADERS = {
  Accept: 'application/json;odata.metadata=minimal',
  'OData-MaxVersion': '4.0',
  'Accept-Encoding': 'gzip, deflate',
  'User-Agent': 'Microsoft.Data.Mashup (https://go.microsoft.com/fwlink/?LinkID=304225)',
};

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  text: string;
}

/** A GET as a BI tool makes it: the raw answer, gunzipped only when the server says it is gzip. */
async function fetchRaw(url: string, headers: Record<string, string>): Promise<Answer> {
  const response = await new Promise<IncomingMessage>((resolve, reject) =>
    get(url, { headers }, resolve).on('error', reject),
  );
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const encoding = response.headers['content-encoding'];
  const text = (encoding === 'gzip' ? gunzipSync(body) : body).toString();
  return { status: response.statusCode!, headers: response.headers, text };
}

describe('OData clients: exact big numbers, form-encoded options and Power BI', () => {
  let app: ListeningApp;
  let apiKey: string;
  let bigSet: string;
  let bigTable: string;
  let biSet: string;
  let biTable: string;
  let connectorSet: string;

  beforeAll(async () => {
    app = await startListeningApp();
    const { dataSource } = app.testApp;
    const owner = await createUserWithApiKey(dataSource);
    apiKey = owner.apiKey;
    const big = await createDataset(dataSource, {
      ownerId: owner.user.id,
      title: 'Big numbers',
      withRowId: true,
      columns: BIG_COLUMNS,
      rowsSql: BIG_ROWS_SQL,
    });
    bigSet = formerEntitySetName({ kind: 'asset', id: big.id });
    bigTable = big.tableName;
    const bi = await createDataset(dataSource, {
      ownerId: owner.user.id,
      title: 'Regions by day',
      withRowId: true,
      columns: BI_COLUMNS,
      rowsSql: BI_ROWS_SQL,
    });
    // Power BI reads the entity set the service document lists: the dataset's readable name.
    [{ readable_name: biSet }] = await dataSource.query(`SELECT readable_name FROM assets WHERE id = $1`, [
      bi.id,
    ]);
    biTable = bi.tableName;
    const instance = await createConnectorInstance(dataSource, {
      ownerId: owner.user.id,
      tableSql: `SELECT n::int8 AS reading FROM generate_series(9007199254740993, 9007199254740995) n`,
    });
    connectorSet = formerEntitySetName({ kind: 'instance', id: instance.id });
  });
  afterAll(async () => {
    await app.close();
  });

  describe('IEEE754Compatible=true', () => {
    it('reads 19-digit integers and long decimals through the npm OData client with every digit', async () => {
      const client = odataClient(app.serviceRoot, apiKey, {
        Accept: IEEE754_ACCEPT,
        Prefer: 'odata.maxpagesize=7000',
      });
      const { rows, pages } = await readAllPages(client, bigSet, () => client.newOptions().count(true));
      expect(pages).toHaveLength(3);
      expect(pages[0]['@odata.count']).toBe(String(BIG_ROWS));
      const expected: Array<{ _row_id: string; id: number; big: string; amount: string | null }> =
        await app.testApp.dataSource.query(
          `SELECT _row_id::text AS "_row_id", id, big::text AS big, amount::text AS amount
             FROM data."${bigTable}" ORDER BY id`,
        );
      expect(expected).toHaveLength(BIG_ROWS);
      expect(rows).toHaveLength(BIG_ROWS);
      // Only the rows that differ, so a failure names them rather than diffing 20,000 rows.
      const differing = rows.filter((row, index) => JSON.stringify(row) !== JSON.stringify(expected[index]));
      expect(differing.slice(0, 3)).toEqual([]);
      // The values a double cannot hold are the point: most of these would lose their last digit.
      expect(rows[0].big).toBe('9223372036854775807');
      expect(rows[1].big).toBe('-9223372036854775808');
    });

    it('says so in the Content-Type, and numbers the rows of a table without row id as strings too', async () => {
      const answer = await fetchRaw(`${app.serviceRoot}/${connectorSet}`, {
        'X-API-Key': apiKey,
        Accept: IEEE754_ACCEPT,
      });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toMatch(/;\s*IEEE754Compatible=true/i);
      expect((JSON.parse(answer.text) as CollectionPage).value).toEqual([
        { _row_number: '1', reading: '9007199254740993' },
        { _row_number: '2', reading: '9007199254740994' },
        { _row_number: '3', reading: '9007199254740995' },
      ]);
    });

    it('takes the parameter from $format as well', async () => {
      const format = encodeURIComponent('application/json;IEEE754Compatible=true');
      const answer = await fetchRaw(`${app.serviceRoot}/${connectorSet}?$format=${format}&$top=1`, {
        'X-API-Key': apiKey,
      });
      expect(answer.headers['content-type']).toMatch(/IEEE754Compatible=true/);
      expect(JSON.parse(answer.text).value).toEqual([{ _row_number: '1', reading: '9007199254740993' }]);
    });

    it('writes JSON numbers without the parameter, as OData requires', async () => {
      const answer = await fetchRaw(`${app.serviceRoot}/${bigSet}?$top=3&$select=id,amount&$count=true`, {
        'X-API-Key': apiKey,
        Accept: 'application/json;odata.metadata=minimal',
      });
      expect(answer.headers['content-type']).not.toMatch(/IEEE754Compatible/i);
      expect(answer.text).toContain(`"@odata.count":${BIG_ROWS},`);
      expect(answer.text).toContain('{"id":1,"amount":123456789.0123456789123}');
    });
  });

  describe('options encoded as forms encode them', () => {
    it('reads a + as a space and %2B as a plus, as URLSearchParams (and Python requests) send them', async () => {
      const query = new URLSearchParams({
        $filter: "region eq 'a+b' and day ge 2024-12-01",
        $orderby: 'day desc,id',
        $select: 'id,day',
        $top: '5',
      });
      expect(query.toString()).toContain('%24orderby=day+desc%2Cid');
      const answer = await fetchRaw(`${app.serviceRoot}/${biSet}?${query}`, { 'X-API-Key': apiKey });
      expect(answer.status).toBe(200);
      const expected = await app.testApp.dataSource.query(
        `SELECT id, to_char(day, 'YYYY-MM-DD') AS day FROM data."${biTable}"
          WHERE region = 'a+b' AND day >= '2024-12-01' ORDER BY day DESC, id LIMIT 5`,
      );
      expect(expected).toHaveLength(5);
      expect((JSON.parse(answer.text) as CollectionPage).value.map(({ id, day }) => ({ id, day }))).toEqual(
        expected,
      );
    });

    it('answers $orderby=day+desc rather than 400', async () => {
      const answer = await fetchRaw(`${app.serviceRoot}/${biSet}?$orderby=day+desc&$top=1&$select=day`, {
        'X-API-Key': apiKey,
      });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.text).value).toEqual([{ day: '2024-12-31' }]);
    });
  });

  describe('Power BI request sequence', () => {
    it('reads the service document, $metadata and every page by @odata.nextLink, gzipped', async () => {
      // Power BI keeps the key in the feed URL and sends it on every request it derives from it.
      const root = `${app.serviceRoot}?api_key=${encodeURIComponent(apiKey)}`;
      const service = await fetchRaw(root, POWER_BI_HEADERS);
      expect(service.status).toBe(200);
      expect(service.headers['odata-version']).toBe('4.0');
      expect(service.headers['content-type']).toMatch(/^application\/json;\s*odata\.metadata=minimal/);
      const document = JSON.parse(service.text) as { value: Array<{ name: string; url: string }> };
      const entry = document.value.find((item) => item.name === biSet);
      expect(entry).toEqual({ name: biSet, kind: 'EntitySet', url: biSet, title: 'Regions by day' });

      const metadata = await fetchRaw(`${app.serviceRoot}/$metadata?api_key=${encodeURIComponent(apiKey)}`, {
        ...POWER_BI_HEADERS,
        Accept: 'application/xml',
      });
      expect(metadata.status).toBe(200);
      expect(metadata.headers['content-encoding']).toBe('gzip');
      expect(metadata.headers['content-type']).toMatch(/^application\/xml/);
      const schema = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(metadata.text)[
        'edmx:Edmx'
      ]['edmx:DataServices'].Schema;
      const entityType = [schema.EntityType].flat().find((type: { Name: string }) => type.Name === biSet);
      expect(entityType.Property.map((property: { Name: string; Type: string }) => property)).toEqual([
        { Name: '_row_id', Type: 'Edm.Int64', Nullable: 'false' },
        { Name: 'id', Type: 'Edm.Int32' },
        { Name: 'region', Type: 'Edm.String' },
        { Name: 'day', Type: 'Edm.Date' },
      ]);

      let next: string | undefined = `${app.serviceRoot}/${entry!.url}?api_key=${encodeURIComponent(apiKey)}`;
      const ids: number[] = [];
      let pages = 0;
      while (next) {
        const page = await fetchRaw(next, POWER_BI_HEADERS);
        pages++;
        expect(page.status).toBe(200);
        expect(page.headers['content-encoding']).toBe('gzip');
        expect(page.headers.vary).toMatch(/Accept-Encoding/i);
        expect(page.headers['odata-version']).toBe('4.0');
        const body = JSON.parse(page.text) as CollectionPage & { '@odata.context': string };
        expect(body['@odata.context']).toBe(`${app.serviceRoot}/$metadata#${biSet}`);
        ids.push(...body.value.map((row) => row.id as number));
        next = body['@odata.nextLink'];
        if (next) expect(new URL(next).searchParams.get('api_key')).toBe(apiKey);
        if (pages > 5) throw new Error('next links never end');
      }
      expect(pages).toBe(2);
      expect(ids).toEqual(Array.from({ length: BI_ROWS }, (_value, index) => index + 1));
    });
  });
});
