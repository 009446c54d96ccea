import { OData } from '@odata/client';
import { formerEntitySetName } from '../../src/odata/odata-entity-set';
import {
  createConnectorInstance,
  createDataset,
  createUserWithApiKey,
  TestColumn,
} from '../stream/stream.factory';
import { CollectionPage, odataClient, ListeningApp, readAllPages, startListeningApp } from './odata.support';

const ROWS = 2_345;

const COLUMNS: TestColumn[] = [
  { name: 'id', label: 'ID', sqlType: 'integer', type: 'integer' },
  { name: 'region', label: 'Region', sqlType: 'text', type: 'text' },
  { name: 'amount', label: 'Amount', sqlType: 'numeric(12,2)', type: 'numeric' },
  { name: 'active', label: 'Active', sqlType: 'boolean', type: 'boolean' },
  { name: 'day', label: 'Day', sqlType: 'date', type: 'date' },
  { name: 'measured_at', label: 'Measured at', sqlType: 'timestamptz', type: 'timestamptz' },
];

/** Rows with nulls, repeats, wildcard characters and quotes in the text, spread over 2024. */
const ROWS_SQL = `SELECT i,
    CASE WHEN i % 11 = 0 THEN NULL WHEN i % 7 = 0 THEN 'North_50%' WHEN i % 5 = 0 THEN 'O''Brien' ELSE 'South ' || (i % 3) END,
    CASE WHEN i % 13 = 0 THEN NULL ELSE round((i * 1.37) % 500, 2) END,
    CASE WHEN i % 17 = 0 THEN NULL ELSE i % 2 = 0 END,
    DATE '2024-01-01' + (i % 366),
    TIMESTAMPTZ '2024-01-01T00:00:00Z' + make_interval(hours => i * 3)
  FROM generate_series(1, ${ROWS}) i`;

describe('OData service: query options pushed down to Postgres', () => {
  let app: ListeningApp;
  let apiKey: string;
  let tableName: string;
  let setName: string;

  /** Ids of the rows a SQL condition keeps, in id order. */
  async function idsWhere(condition: string): Promise<number[]> {
    const rows = await app.testApp.dataSource.query(
      `SELECT id FROM data."${tableName}" WHERE ${condition} ORDER BY _row_id`,
    );
    return rows.map((row: { id: number }) => row.id);
  }

  function get(query: Record<string, string>, path = setName) {
    return app.testApp.http.get(`/api/odata/${path}`).set('X-API-Key', apiKey).query(query);
  }

  beforeAll(async () => {
    app = await startListeningApp();
    const owner = await createUserWithApiKey(app.testApp.dataSource);
    apiKey = owner.apiKey;
    const dataset = await createDataset(app.testApp.dataSource, {
      ownerId: owner.user.id,
      title: 'Sales',
      withRowId: true,
      columns: COLUMNS,
      rowsSql: ROWS_SQL,
    });
    tableName = dataset.tableName;
    setName = formerEntitySetName({ kind: 'asset', id: dataset.id });
  });
  afterAll(async () => {
    await app.close();
  });

  it('follows nextLink with the client to the last page, every row once, in file order', async () => {
    const client = odataClient(app.serviceRoot, apiKey, { Prefer: 'odata.maxpagesize=500' });
    const { rows, pages } = await readAllPages(client, setName, () => client.newOptions());
    expect(rows).toHaveLength(ROWS);
    expect(pages).toHaveLength(Math.ceil(ROWS / 500));
    expect(rows.map((row) => row.id)).toEqual(Array.from({ length: ROWS }, (_value, index) => index + 1));
    expect(pages.at(-1)!['@odata.nextLink']).toBeUndefined();
    // Pages follow the row id: the link names the last key, not an offset.
    expect(new URL(pages[0]['@odata.nextLink']!).searchParams.get('$skiptoken')).toBe('k500.500');
  });

  it('pages down the row id by key too, and a page that ends on the last row links to nothing', async () => {
    // 2,345 rows are exactly five pages of 469: the fifth holds the last row and no row follows it.
    const client = odataClient(app.serviceRoot, apiKey, { Prefer: 'odata.maxpagesize=469' });
    const { rows, pages } = await readAllPages(client, setName, () =>
      client.newOptions().orderby('_row_id', 'desc').select('id'),
    );
    expect(rows.map((row) => row.id)).toEqual(Array.from({ length: ROWS }, (_value, index) => ROWS - index));
    expect(pages.map((page) => page.value.length)).toEqual([469, 469, 469, 469, 469]);
    expect(pages.at(-1)!['@odata.nextLink']).toBeUndefined();
    expect(new URL(pages[0]['@odata.nextLink']!).searchParams.get('$skiptoken')).toBe(`k${ROWS - 468}.469`);
  });

  it('pages by the default size and says which page size a client preference got', async () => {
    const response = await get({}).set('Prefer', 'odata.maxpagesize=1000').expect(200);
    expect(response.headers['preference-applied']).toBe('odata.maxpagesize=1000');
    expect(response.body.value).toHaveLength(1000);
    const all = await get({}).expect(200);
    expect(all.body.value).toHaveLength(ROWS);
    expect(all.body['@odata.nextLink']).toBeUndefined();
  });

  it('streams a page as Postgres reads it rather than sending one body built in memory', async () => {
    const response = await get({ $count: 'true' }).set('Prefer', 'odata.maxpagesize=2000').expect(200);
    expect(response.headers['transfer-encoding']).toBe('chunked');
    expect(response.headers['content-length']).toBeUndefined();
    expect(response.headers['odata-version']).toBe('4.0');
    expect(response.body['@odata.count']).toBe(ROWS);
    expect(response.body.value).toHaveLength(2000);
    expect(new URL(response.body['@odata.nextLink']).searchParams.get('$skiptoken')).toBe('k2000.2000');
  });

  const FILTERS: Array<[string, string]> = [
    ["region eq 'South 1'", `region = 'South 1'`],
    ["region ne 'South 1'", `region IS DISTINCT FROM 'South 1'`],
    ['amount gt 250.5', 'amount > 250.5'],
    ['amount ge 100 and amount le 200', 'amount >= 100 AND amount <= 200'],
    ['id lt 10 or id gt 2340', 'id < 10 OR id > 2340'],
    ['not (id gt 5)', 'NOT (id > 5)'],
    ["not (region eq 'South 1')", `(region = 'South 1') IS NOT TRUE`],
    ['region eq null', 'region IS NULL'],
    ['amount ne null and active eq false', 'amount IS NOT NULL AND active = false'],
    ['active', 'active IS TRUE'],
    ["contains(region,'50%')", `region LIKE '%50\\%%'`],
    ["startswith(region,'North_')", `region LIKE 'North\\_%'`],
    ["endswith(region,'''Brien')", `region LIKE '%''Brien'`],
    [
      "(contains(region,'South') or amount lt 3) and not startswith(region,'South 2')",
      `(region LIKE '%South%' OR amount < 3) AND (region LIKE 'South 2%') IS NOT TRUE`,
    ],
    ['day ge 2024-03-01 and day lt 2024-04-01', `day >= '2024-03-01' AND day < '2024-04-01'`],
    [
      'day ge 2024-03-01T12:00:00Z and day le 2024-03-05T00:00:00Z',
      `day::timestamptz >= '2024-03-01T12:00:00Z' AND day::timestamptz <= '2024-03-05T00:00:00Z'`,
    ],
    [
      'day gt 2024-03-01T12:00:00Z and day lt 2024-03-05T06:00:00Z',
      `day::timestamptz > '2024-03-01T12:00:00Z' AND day::timestamptz < '2024-03-05T06:00:00Z'`,
    ],
    [
      'measured_at ge 2024-02-01T00:00:00Z and measured_at lt 2024-02-08T00:00:00Z',
      `measured_at >= '2024-02-01T00:00:00Z' AND measured_at < '2024-02-08T00:00:00Z'`,
    ],
    [
      'measured_at ge 2024-02-01T02:00:00+02:00 and measured_at lt 2024-02-02',
      `measured_at >= '2024-02-01T00:00:00Z' AND measured_at < '2024-02-02T00:00:00Z'`,
    ],
    ['2024-06-01 le day', `day >= '2024-06-01'`],
    ['amount gt id', 'amount > id'],
  ];

  it.each(FILTERS)('answers $filter=%s with the rows SQL finds', async (filter, condition) => {
    const client = odataClient(app.serviceRoot, apiKey, { Prefer: 'odata.maxpagesize=700' });
    const { rows } = await readAllPages(client, setName, () =>
      client.newOptions().filter(filter).select('id'),
    );
    const expected = await idsWhere(condition);
    expect(expected.length).toBeGreaterThan(0);
    expect(rows.map((row) => row.id)).toEqual(expected);
  });

  it('builds filters with the client’s own filter builder', async () => {
    const client = odataClient(app.serviceRoot, apiKey);
    const filter = OData.newFilter().property('region').eqString('South 1').property('id').lt(100);
    const rows = await client.getEntitySet(setName).query(client.newOptions().filter(filter).select('id'));
    expect(rows.map((row: { id: number }) => row.id)).toEqual(
      await idsWhere(`region = 'South 1' AND id < 100`),
    );
  });

  it('answers only the $select properties', async () => {
    const response = await get({ $select: 'region,id', $top: '2' }).expect(200);
    expect(response.body.value).toEqual([
      { id: 1, region: 'South 1' },
      { id: 2, region: 'South 2' },
    ]);
  });

  it('orders by $orderby with nulls first going up, paging by offset across next links', async () => {
    const client = odataClient(app.serviceRoot, apiKey, { Prefer: 'odata.maxpagesize=400' });
    const { rows, pages } = await readAllPages(client, setName, () =>
      client
        .newOptions()
        .orderby([
          { field: 'amount', order: 'desc' },
          { field: 'id', order: 'asc' },
        ])
        .select(['id']),
    );
    const expected = await app.testApp.dataSource.query(
      `SELECT id FROM data."${tableName}" ORDER BY amount DESC NULLS LAST, id ASC`,
    );
    expect(rows.map((row) => row.id)).toEqual(expected.map((row: { id: number }) => row.id));
    expect(new URL(pages[0]['@odata.nextLink']!).searchParams.get('$skiptoken')).toBe('o400');
    const up = await get({ $orderby: 'amount', $top: '3', $select: 'amount' }).expect(200);
    expect(up.body.value).toEqual([{ amount: null }, { amount: null }, { amount: null }]);
    const down = await get({ $orderby: 'amount desc', $top: '1', $select: 'amount' }).expect(200);
    expect(down.body.value).toEqual([{ amount: 498.93 }]);
  });

  it('keeps $top and $skip across pages and counts the filtered rows with $count', async () => {
    const client = odataClient(app.serviceRoot, apiKey, { Prefer: 'odata.maxpagesize=300' });
    const { rows, pages } = await readAllPages(client, setName, () =>
      client.newOptions().filter('amount gt 100').skip(50).top(1000).count(true).select('id'),
    );
    const expected = await idsWhere('amount > 100');
    expect(rows.map((row) => row.id)).toEqual(expected.slice(50, 1050));
    expect(pages).toHaveLength(4);
    for (const page of pages) expect(page['@odata.count']).toBe(expected.length);
    const count = await app.testApp.http
      .get(`/api/odata/${setName}/$count`)
      .query({ $filter: 'amount gt 100' })
      .set('X-API-Key', apiKey)
      .expect(200);
    expect(count.text).toBe(String(expected.length));
    expect(await client.getEntitySet(setName).count()).toBe(ROWS);
  });

  it('pages a connector table (no row id) by offset, numbering its rows', async () => {
    const owner = await createUserWithApiKey(app.testApp.dataSource);
    const instance = await createConnectorInstance(app.testApp.dataSource, {
      ownerId: owner.user.id,
      tableSql: 'SELECT i AS n FROM generate_series(1, 25) i',
    });
    const name = formerEntitySetName({ kind: 'instance', id: instance.id });
    const client = odataClient(app.serviceRoot, owner.apiKey, { Prefer: 'odata.maxpagesize=10' });
    const { rows, pages } = await readAllPages(client, name, () => client.newOptions().filter('n gt 2'));
    expect(pages).toHaveLength(3);
    expect(rows).toEqual(
      Array.from({ length: 23 }, (_value, index) => ({ _row_number: index + 1, n: index + 3 })),
    );
  });

  it.each([
    [{ $expand: 'x' }, 'The query option $expand is not supported by this service'],
    [{ $search: 'x' }, 'The query option $search is not supported by this service'],
    [{ $apply: 'groupby((region))' }, 'The query option $apply is not supported by this service'],
    [{ $foo: '1' }, 'Unknown query option $foo'],
    [{ $top: '-1' }, '$top must be a whole number of at most 15 digits'],
    [{ $skip: 'x' }, '$skip must be a whole number of at most 15 digits'],
    [{ $count: 'yes' }, '$count must be true or false'],
    [{ $format: 'xml' }, '$format supports json only'],
    [{ $skiptoken: '1; DROP TABLE users' }, '$skiptoken is not one this service handed out'],
    [{ $select: 'nope' }, 'has no property nope'],
    [{ $orderby: 'nope desc' }, 'has no property nope'],
    [{ $filter: 'nope eq 1' }, 'has no property nope'],
    [{ $filter: "id eq 'x'" }, "id (Edm.Int32) cannot be compared with 'x'"],
    [{ $filter: 'id eq 1 and' }, 'The $filter option could not be read'],
    [{ $filter: "tolower(region) eq 'a'" }, '$filter does not support'],
    [{ $filter: 'id add 1 gt 2' }, '$filter does not support'],
    [{ $filter: "contains(id,'1')" }, 'contains needs a text property, not id'],
    [{ $filter: 'day ge 2024-02-30' }, 'A value in $filter is not valid'],
    [{ $filter: '1 eq 1' }, '$filter compares two values'],
    [{ $filter: 'region' }, 'region is not a true/false property'],
  ])('refuses %j with 400 and an OData error body', async (query, message) => {
    const response = await get(query as Record<string, string>).expect(400);
    expect(response.headers['odata-version']).toBe('4.0');
    const body = response.body as CollectionPage;
    expect(body.error!.code).toBe('BadRequest');
    expect(body.error!.message).toContain(message);
  });

  it('refuses a repeated option with 400', async () => {
    const response = await app.testApp.http
      .get(`/api/odata/${setName}?$top=1&$top=2`)
      .set('X-API-Key', apiKey)
      .expect(400);
    expect(response.body.error.message).toBe('The query option $top must be given once, as text');
  });
});
