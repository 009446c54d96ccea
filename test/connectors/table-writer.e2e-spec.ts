import { randomUUID } from 'node:crypto';
import { ConnectorTableWriter } from '../../src/connectors/engine/connector-table-writer';
import type { FetchedPage } from '../../src/connectors/engine/run-plan';
import { columnsOf as columnsOfCatalog } from '../../src/database/data-tables/data-table-catalog';
import { createConnectorTable, dropTable } from '../../src/database/data-tables/data-table-ddl';
import { sqlOn } from '../../src/database/sql';
import { createConnector } from '../factories/connector.factory';
import { createUser } from '../factories/user.factory';
import { createTestApp, TestApp } from '../support/test-app';

async function* pagesOf(...pages: Array<Record<string, unknown>[] | Error>): AsyncGenerator<FetchedPage> {
  for (const page of pages) {
    if (page instanceof Error) throw page;
    yield { records: page, iteration: {} };
  }
}

describe('connector table writer', () => {
  let testApp: TestApp;
  let writer: ConnectorTableWriter;
  let connectorId: string;
  let ownerId: string;

  beforeAll(async () => {
    testApp = await createTestApp();
    writer = new ConnectorTableWriter(testApp.dataSource);
    connectorId = (await createConnector(testApp.dataSource)).id;
    ownerId = (await createUser(testApp.dataSource)).id;
  });
  afterAll(async () => {
    await testApp.close();
  });

  async function newTable(): Promise<string> {
    const table = `ci_writer_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    await testApp.dataSource.query(
      `INSERT INTO connector_instances (connector_id, owner_id, title, output_table_name) VALUES ($1, $2, 'W', $3)`,
      [connectorId, ownerId, table],
    );
    await createConnectorTable(sqlOn(testApp.dataSource), table);
    return table;
  }

  const columnsOf = async (table: string) =>
    Object.fromEntries(
      (
        await testApp.dataSource.query(
          `SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'data' AND table_name = $1`,
          [table],
        )
      ).map((row: { column_name: string; data_type: string }) => [row.column_name, row.data_type]),
    );

  it('makes top-level keys safe columns, nested values jsonb, and adds columns for new keys', async () => {
    const table = await newTable();
    const count = await writer.write({
      tableName: table,
      runId: randomUUID(),
      override: false,
      pages: pagesOf(
        [
          {
            'First Name': 'Ann',
            'über-Score': 1.5,
            ok: true,
            meta: { a: [1] },
            'quote"d': 'x"y',
            _private: 'p',
          },
        ],
        [{ 'First Name': 'Bob', late: 'added later', list: [1, 2] }],
      ),
    });
    expect(count).toBe(2);
    expect(await columnsOf(table)).toEqual({
      _run_id: 'uuid',
      _fetched_at: 'timestamp with time zone',
      first_name: 'text',
      uber_score: 'numeric',
      ok: 'boolean',
      meta: 'jsonb',
      quote_d: 'text',
      private: 'text',
      late: 'text',
      list: 'jsonb',
    });
    const rows = await testApp.dataSource.query(`SELECT * FROM data."${table}" ORDER BY first_name`);
    expect(rows[0]).toMatchObject({
      first_name: 'Ann',
      uber_score: '1.5',
      ok: true,
      meta: { a: [1] },
      quote_d: 'x"y',
      late: null,
    });
    expect(rows[1]).toMatchObject({ first_name: 'Bob', late: 'added later', list: [1, 2] });
  });

  it('stores every text value exactly as fetched, whatever CSV would make of it unquoted', async () => {
    const table = await newTable();
    const values = [
      '',
      ' padded ',
      '\\.',
      'a,b',
      'x"y',
      'two\nlines',
      'cr\rhere',
      'back\\slash',
      'tab\there',
      'NULL',
      '\\N',
    ];
    await writer.write({
      tableName: table,
      runId: randomUUID(),
      override: false,
      pages: pagesOf(values.map((value, index) => ({ n: index, value, json: { value } }))),
    });
    const rows = await testApp.dataSource.query(`SELECT value, json FROM data."${table}" ORDER BY n`);
    expect(rows.map((row: { value: string }) => row.value)).toEqual(values);
    expect(rows.map((row: { json: { value: string } }) => row.json.value)).toEqual(values);
  });

  it('widens a column when later values do not fit its type, also across appended runs', async () => {
    const table = await newTable();
    await writer.write({
      tableName: table,
      runId: randomUUID(),
      override: false,
      pages: pagesOf([{ code: 1, flag: true, info: 5 }]),
    });
    await writer.write({
      tableName: table,
      runId: randomUUID(),
      override: false,
      pages: pagesOf([{ code: 'A-7', flag: 'maybe', info: { deep: 1 } }]),
    });
    expect(await columnsOf(table)).toMatchObject({ code: 'text', flag: 'text', info: 'jsonb' });
    const rows = await testApp.dataSource.query(
      `SELECT code, flag, info FROM data."${table}" ORDER BY _fetched_at`,
    );
    expect(rows).toEqual([
      { code: '1', flag: 'true', info: 5 },
      { code: 'A-7', flag: 'maybe', info: { deep: 1 } },
    ]);
  });

  it('widening timestamps to text keeps each value as fetched, within a run and across runs', async () => {
    const table = await newTable();
    const written = ['2024-03-10T09:30:00+02:00', '2024-03-10 07:30Z', '2024-03-10T07:30:00.5-00:00'];
    await writer.write({
      tableName: table,
      runId: randomUUID(),
      override: false,
      pages: pagesOf(
        [{ at: written[0], within: '2024-01-02' }],
        [{ at: written[1], within: written[0] }],
        [{ at: written[2], within: 'not a time' }],
      ),
    });
    // Readers see the instants; the text beside them is no column of theirs.
    const [typed] = await testApp.dataSource.query(
      `SELECT to_json(at) #>> '{}' AS at FROM data."${table}" ORDER BY _fetched_at, ctid LIMIT 1`,
    );
    expect(typed.at).toBe('2024-03-10T07:30:00+00:00');
    const readerColumns = await columnsOfCatalog(sqlOn(testApp.dataSource), table);
    expect(readerColumns.map((column) => column.name).sort()).toEqual([
      '_fetched_at',
      '_run_id',
      'at',
      'within',
    ]);
    await writer.write({
      tableName: table,
      runId: randomUUID(),
      override: false,
      pages: pagesOf([{ at: 'yesterday', within: null }]),
    });
    expect(await columnsOf(table)).toEqual({
      _run_id: 'uuid',
      _fetched_at: 'timestamp with time zone',
      at: 'text',
      within: 'text',
    });
    const rows = await testApp.dataSource.query(
      `SELECT at, within FROM data."${table}" ORDER BY _fetched_at, ctid`,
    );
    expect(rows).toEqual([
      { at: written[0], within: '2024-01-02' },
      { at: written[1], within: written[0] },
      { at: written[2], within: 'not a time' },
      { at: 'yesterday', within: null },
    ]);
  });

  it('keeps the text fetched when a date column meets timestamps and the column later widens to text', async () => {
    const table = await newTable();
    const run = (records: Record<string, unknown>[]) =>
      writer.write({ tableName: table, runId: randomUUID(), override: false, pages: pagesOf(records) });
    await run([{ day: '2024-01-02' }]);
    await run([{ day: '2024-01-03T06:00:00+01:00' }]);
    expect(await columnsOf(table)).toMatchObject({ day: 'timestamp with time zone' });
    await run([{ day: 'soon' }]);
    const rows = await testApp.dataSource.query(`SELECT day FROM data."${table}" ORDER BY _fetched_at, ctid`);
    expect(rows.map((row: { day: string }) => row.day)).toEqual([
      '2024-01-02',
      '2024-01-03T06:00:00+01:00',
      'soon',
    ]);
  });

  it('appending timestamps alters no column once their text is kept, so a reader never holds it up', async () => {
    const table = await newTable();
    const run = (at: string) =>
      writer.write({ tableName: table, runId: randomUUID(), override: false, pages: pagesOf([{ at }]) });
    await run('2024-03-10T09:30:00+02:00');
    const reader = testApp.dataSource.createQueryRunner();
    await reader.connect();
    await reader.startTransaction();
    await reader.query(`SELECT count(*) FROM data."${table}"`);
    try {
      // An ALTER TABLE would wait for the reader's lock until it ends.
      const heldUp = new Promise((_, reject) =>
        setTimeout(() => reject(new Error('held up by a reader')), 3000),
      );
      await Promise.race([run('2024-03-11T09:30:00+02:00'), heldUp]);
    } finally {
      await reader.rollbackTransaction();
      await reader.release();
    }
    const rows = await testApp.dataSource.query(`SELECT at::text FROM data."${table}" ORDER BY _fetched_at`);
    expect(rows).toHaveLength(2);
  });

  it('a run replacing rows by key keeps the text fetched of the rows it leaves', async () => {
    const table = await newTable();
    const run = (records: Record<string, unknown>[]) =>
      writer.write({
        tableName: table,
        runId: randomUUID(),
        override: false,
        primaryKey: ['id'],
        pages: pagesOf(records),
      });
    await run([
      { id: 1, at: '2024-03-10T09:30:00+02:00' },
      { id: 2, at: '2024-03-11T09:30:00+02:00' },
    ]);
    await run([{ id: 1, at: 'unknown' }]);
    const rows = await testApp.dataSource.query(`SELECT id, at FROM data."${table}" ORDER BY id`);
    expect(rows).toEqual([
      { id: '1', at: 'unknown' },
      { id: '2', at: '2024-03-11T09:30:00+02:00' },
    ]);
  });

  it('tags rows with their iteration value in a _<key> column', async () => {
    const table = await newTable();
    async function* iterated(): AsyncGenerator<FetchedPage> {
      yield { records: [{ temp: 1 }], iteration: { city: 'Berlin' } };
      yield { records: [{ temp: 2 }], iteration: { city: 'Paris' } };
    }
    await writer.write({ tableName: table, runId: randomUUID(), override: true, pages: iterated() });
    const rows = await testApp.dataSource.query(`SELECT temp, _city FROM data."${table}" ORDER BY temp`);
    expect(rows).toEqual([
      { temp: '1', _city: 'Berlin' },
      { temp: '2', _city: 'Paris' },
    ]);
  });

  it('stamps every row with its run id and one fetch time, and leaves no defaults on the table', async () => {
    for (const override of [true, false]) {
      const table = await newTable();
      const runId = randomUUID();
      // Records of only null fields come first: rows before any column has a type still count.
      const count = await writer.write({
        tableName: table,
        runId,
        override,
        pages: pagesOf([{ v: null }, { v: null }], [{ v: 'a' }, { v: null }]),
      });
      expect(count).toBe(4);
      const rows = await testApp.dataSource.query(
        `SELECT _run_id, _fetched_at, v FROM data."${table}" ORDER BY v NULLS FIRST`,
      );
      expect(rows.map((row: { v: string | null }) => row.v)).toEqual([null, null, null, 'a']);
      expect(new Set(rows.map((row: { _run_id: string }) => row._run_id))).toEqual(new Set([runId]));
      expect(new Set(rows.map((row: { _fetched_at: Date }) => row._fetched_at.toISOString())).size).toBe(1);
      const defaults = await testApp.dataSource.query(
        `SELECT column_name FROM information_schema.columns
         WHERE table_schema = 'data' AND table_name = $1 AND column_default IS NOT NULL`,
        [table],
      );
      expect(defaults).toEqual([]);
    }
  });

  it('override: readers see the old rows until the new ones commit', async () => {
    const table = await newTable();
    await writer.write({
      tableName: table,
      runId: randomUUID(),
      override: true,
      pages: pagesOf([{ v: 'old-1' }, { v: 'old-2' }]),
    });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    async function* slowPages(): AsyncGenerator<FetchedPage> {
      yield { records: [{ v: 'new-1' }], iteration: {} };
      await gate;
      yield { records: [{ v: 'new-2' }], iteration: {} };
    }
    const writing = writer.write({
      tableName: table,
      runId: randomUUID(),
      override: true,
      pages: slowPages(),
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const during = await testApp.dataSource.query(`SELECT v FROM data."${table}" ORDER BY v`);
    expect(during).toEqual([{ v: 'old-1' }, { v: 'old-2' }]);
    release();
    await writing;
    expect(await testApp.dataSource.query(`SELECT v FROM data."${table}" ORDER BY v`)).toEqual([
      { v: 'new-1' },
      { v: 'new-2' },
    ]);
  });

  it('a failed run leaves the old rows and no staging table, with or without override', async () => {
    const table = await newTable();
    await writer.write({
      tableName: table,
      runId: randomUUID(),
      override: true,
      pages: pagesOf([{ v: 'kept' }]),
    });
    for (const override of [true, false]) {
      const runId = randomUUID();
      await expect(
        writer.write({
          tableName: table,
          runId,
          override,
          pages: pagesOf([{ v: 'partial' }], new Error('upstream died')),
        }),
      ).rejects.toThrow('upstream died');
    }
    expect(await testApp.dataSource.query(`SELECT v FROM data."${table}"`)).toEqual([{ v: 'kept' }]);
    const leftovers = await testApp.dataSource.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'data' AND table_name LIKE $1`,
      [`${table}__s%`],
    );
    expect(leftovers).toEqual([]);
  });

  it('an override run with no records empties the table', async () => {
    const table = await newTable();
    await writer.write({ tableName: table, runId: randomUUID(), override: true, pages: pagesOf([{ v: 1 }]) });
    expect(
      await writer.write({ tableName: table, runId: randomUUID(), override: true, pages: pagesOf() }),
    ).toBe(0);
    expect(await testApp.dataSource.query(`SELECT * FROM data."${table}"`)).toEqual([]);
  });

  it('does not recreate the table of an instance removed during the run', async () => {
    const table = await newTable();
    await testApp.dataSource.query(`DELETE FROM connector_instances WHERE output_table_name = $1`, [table]);
    await dropTable(sqlOn(testApp.dataSource), table);
    await expect(
      writer.write({ tableName: table, runId: randomUUID(), override: true, pages: pagesOf([{ v: 1 }]) }),
    ).rejects.toThrow('The connector instance was removed during the run');
    const [exists] = await testApp.dataSource.query(`SELECT to_regclass($1) AS oid`, [`data.${table}`]);
    expect(exists.oid).toBeNull();
  });
});
