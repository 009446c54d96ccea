import { columnIndexName } from '../../src/database/data-tables/data-table-names';
import { formerEntitySetName, toEntitySet } from '../../src/odata/odata-entity-set';
import { filterValueSettings } from '../../src/odata/odata-filter-sql';
import { pageStatement, Statement } from '../../src/odata/odata-page-sql';
import { readQueryOptions } from '../../src/odata/odata-query-options';
import { createDataset, createUserWithApiKey, TestColumn } from '../stream/stream.factory';
import { odataClient, ListeningApp, readAllPages, startListeningApp } from './odata.support';

const ROWS = 200_000;
const COLUMNS: TestColumn[] = [
  { name: 'id', label: 'ID', sqlType: 'integer', type: 'integer' },
  { name: 'day', label: 'Day', sqlType: 'date', type: 'date' },
  { name: 'measured_at', label: 'Measured at', sqlType: 'timestamptz', type: 'timestamptz' },
];

describe('OData service: incremental refresh and keyset paging use indexes', () => {
  let app: ListeningApp;
  let apiKey: string;
  let tableName: string;
  let setName: string;

  async function indexedColumns(): Promise<string[]> {
    const rows = await app.testApp.dataSource.query(
      `SELECT indexname FROM pg_indexes WHERE schemaname = 'data' AND tablename = $1 ORDER BY indexname`,
      [tableName],
    );
    return rows.map((row: { indexname: string }) => row.indexname);
  }

  /** The plan Postgres picks for a statement the service would run. */
  async function plan(statement: Statement): Promise<string> {
    return app.testApp.dataSource.transaction(async (manager) => {
      const settings = filterValueSettings(statement.values);
      if (settings) await manager.query(settings.text, settings.values);
      const rows = await manager.query(`EXPLAIN ${statement.text}`);
      return rows.map((row: { 'QUERY PLAN': string }) => row['QUERY PLAN']).join('\n');
    });
  }

  async function entitySet() {
    const columns = COLUMNS.map(({ name }) => ({
      name,
      label: name,
      pgType: name === 'id' ? 'int4' : name === 'day' ? 'date' : 'timestamptz',
    }));
    return toEntitySet({
      kind: 'asset',
      id: '',
      title: 'Readings',
      readableName: 'readings',
      tableName,
      columns,
      hasRowId: true,
    });
  }

  beforeAll(async () => {
    app = await startListeningApp();
    const owner = await createUserWithApiKey(app.testApp.dataSource);
    apiKey = owner.apiKey;
    const dataset = await createDataset(app.testApp.dataSource, {
      ownerId: owner.user.id,
      title: 'Readings',
      withRowId: true,
      columns: COLUMNS,
      rowsSql: `SELECT i, DATE '2020-01-01' + i / 100, TIMESTAMPTZ '2020-01-01T00:00:00Z' + make_interval(mins => i * 15)
        FROM generate_series(1, ${ROWS}) i`,
    });
    tableName = dataset.tableName;
    setName = formerEntitySetName({ kind: 'asset', id: dataset.id });
    await app.testApp.dataSource.query(`ANALYZE data."${tableName}"`);
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers a RangeStart/RangeEnd window on a timestamp column through an index built on first use', async () => {
    expect(await indexedColumns()).toEqual([]);
    const filter = 'measured_at ge 2021-01-01T00:00:00Z and measured_at lt 2021-01-22T00:00:00Z';
    const client = odataClient(app.serviceRoot, apiKey);
    const { rows } = await readAllPages(client, setName, () =>
      client.newOptions().filter(filter).select('id'),
    );
    const expected = await app.testApp.dataSource.query(
      `SELECT id FROM data."${tableName}" WHERE measured_at >= '2021-01-01Z' AND measured_at < '2021-01-22Z' ORDER BY id`,
    );
    expect(rows.map((row) => row.id)).toEqual(expected.map((row: { id: number }) => row.id));
    expect(rows.length).toBe(2016);
    expect(await indexedColumns()).toEqual(
      [columnIndexName(tableName, '_row_id'), columnIndexName(tableName, 'measured_at')].sort(),
    );
    const statement = pageStatement(
      await entitySet(),
      readQueryOptions({ $filter: filter }),
      { emitted: 0 },
      10_000,
    );
    expect(statement.text).toContain(
      `t."measured_at" >= current_setting('odata.value_1')::timestamptz AND t."measured_at" < current_setting('odata.value_2')::timestamptz`,
    );
    expect(await plan(statement)).toMatch(new RegExp(`Index.*${columnIndexName(tableName, 'measured_at')}`));
  });

  it('bounds a date column by a point in time through its index too', async () => {
    const filter = 'day ge 2020-06-01T00:00:00Z and day lt 2020-06-03T00:00:00Z';
    const response = await app.testApp.http
      .get(`/api/odata/${setName}`)
      .query({ $filter: filter, $count: 'true', $top: '0' })
      .set('X-API-Key', apiKey)
      .expect(200);
    expect(response.body['@odata.count']).toBe(200);
    const statement = pageStatement(
      await entitySet(),
      readQueryOptions({ $filter: filter }),
      { emitted: 0 },
      10_000,
    );
    expect(await plan(statement)).toMatch(new RegExp(`Index.*${columnIndexName(tableName, 'day')}`));
  });

  it('pages by 50,000 rows unless a client asks for fewer, and never by more', async () => {
    const read = (prefer?: string) => {
      const request = app.testApp.http
        .get(`/api/odata/${setName}`)
        .query({ $select: 'id' })
        .set('X-API-Key', apiKey);
      return (prefer ? request.set('Prefer', prefer) : request).expect(200);
    };
    const plain = await read();
    expect(plain.body.value).toHaveLength(50_000);
    expect(plain.headers['preference-applied']).toBeUndefined();
    expect(new URL(plain.body['@odata.nextLink']).searchParams.get('$skiptoken')).toBe('k50000.50000');
    const greedy = await read('odata.maxpagesize=80000');
    expect(greedy.headers['preference-applied']).toBe('odata.maxpagesize=50000');
    expect(greedy.body.value).toHaveLength(50_000);
  });

  it('reads a late page by key through the row-id index, with no sort and no offset into the table', async () => {
    const statement = pageStatement(
      await entitySet(),
      readQueryOptions({}),
      { emitted: 190_000, lastKey: '190000' },
      10_000,
    );
    // Only the walk over this page's keys that finds where the page ends skips, and never further.
    expect(statement.text.match(/OFFSET \d+/g)).toEqual(['OFFSET 9999']);
    const late = await plan(statement);
    expect(late).toMatch(new RegExp(`Index Scan using ${columnIndexName(tableName, '_row_id')}`));
    expect(late).not.toContain('Sort');
    const response = await app.testApp.http
      .get(`/api/odata/${setName}`)
      .query({ $skiptoken: 'k190000.190000', $select: 'id' })
      .set('X-API-Key', apiKey)
      .expect(200);
    expect(response.body.value).toHaveLength(10_000);
    expect(response.body.value[0]).toEqual({ id: 190_001 });
    expect(response.body['@odata.nextLink']).toBeUndefined();
  });
});
