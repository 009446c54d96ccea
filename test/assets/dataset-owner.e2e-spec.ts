import { PassThrough, Readable } from 'node:stream';
import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { COLUMNS_CHANGED, DatasetOwnerService } from '../../src/assets/dataset-owner.service';
import type { AssetColumn } from '../../src/assets/entities/asset.entity';
import { CsvIngestService } from '../../src/assets/ingest/csv-ingest.service';
import {
  ColumnProfileService,
  PROFILE_APPLICATION_NAME,
} from '../../src/assets/ingest/column-profile.service';
import { hasColumnIndex } from '../../src/database/data-tables/data-table-ddl';
import { dataTable, ROW_ID_COLUMN } from '../../src/database/data-tables/data-table-names';
import { dedicatedClient, sqlOn } from '../../src/database/sql';
import { expectNoIngestConnections, orphanDatasetTables, uploadDataset } from '../factories/asset.factory';
import { simpleSpec } from '../factories/connector.factory';
import { createLoggedInUser, TestUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

type Agent = TestAgent<Test>;

/** Every text an error answer carries: its error and each validation message. */
function messagesOf(body: { error?: string; message?: string | string[]; errors?: unknown }): string[] {
  return [body.error ?? '', ...[body.message ?? []].flat(), ...[body.errors ?? []].flat().map(String)];
}

const FIRST = 'name,amount,day\nalpha,1,2024-01-01\nbeta,2,2024-01-02\ngamma,3,2024-01-03\n';

describe('owner actions on a dataset: edit, refresh (replace, append), delete', () => {
  let testApp: TestApp;
  let owner: { user: TestUser; agent: Agent };
  let buyer: { user: TestUser; agent: Agent };

  beforeAll(async () => {
    testApp = await createTestApp();
    owner = await createLoggedInUser(testApp, { name: 'Olga Owner' });
    buyer = await createLoggedInUser(testApp, { name: 'Bea Buyer' });
  });
  afterAll(() => testApp.close());

  /** Profiles are computed right after a load commits; these tests read them once stored. */
  const profilesSettled = () => testApp.app.get(ColumnProfileService).settled();
  const uploadSettled = async (...args: Parameters<typeof uploadDataset>) => {
    const id = await uploadDataset(...args);
    await profilesSettled();
    return id;
  };

  const refresh = (agent: Agent, id: string, csv: string, mode?: string) => {
    const request = agent.post(`/api/assets/${id}/refresh`).set('Origin', TEST_ORIGIN);
    if (mode) request.field('mode', mode);
    return request.attach('file', Buffer.from(csv), 'next.csv');
  };
  const rowsOf = async (id: string) =>
    (await owner.agent.get(`/api/assets/${id}/data`).query({ limit: 1000 }).expect(200)).body.rows;
  const columnsOf = async (id: string): Promise<AssetColumn[]> => {
    const [{ columns }] = await testApp.dataSource.query(`SELECT columns FROM assets WHERE id = $1`, [id]);
    return columns;
  };
  const stateOf = async (id: string) => {
    const [asset] = await testApp.dataSource.query(
      `SELECT title, row_count, byte_count, columns, profile, data_updated_at FROM assets WHERE id = $1`,
      [id],
    );
    return { asset, rows: await rowsOf(id) };
  };

  describe('PATCH assets/{id}', () => {
    it.each([
      'title',
      'description',
      'category',
      'keywords',
      'price',
      'is_public',
      'source',
      'licence',
      'dictionary',
    ])('answers 400 naming the field, not 500, when %s is sent as null', async (field) => {
      const id = await uploadSettled(owner.agent, { title: `Null ${field}` }, FIRST);
      const response = await owner.agent
        .patch(`/api/assets/${id}`)
        .set('Origin', TEST_ORIGIN)
        .send({ [field]: null });
      expect(response.status).toBe(400);
      const named = ['title', 'price'].includes(field) ? field[0].toUpperCase() + field.slice(1) : field;
      expect(messagesOf(response.body).join(' | ')).toContain(named);
      const [asset] = await testApp.dataSource.query(`SELECT title FROM assets WHERE id = $1`, [id]);
      expect(asset.title).toBe(`Null ${field}`);
    });

    it('changes the sent fields with the upload’s rules and answers the detail', async () => {
      const id = await uploadSettled(owner.agent, { title: 'Before' }, FIRST);
      const response = await owner.agent
        .patch(`/api/assets/${id}`)
        .set('Origin', TEST_ORIGIN)
        .send({
          title: '  After  ',
          description: 'Monthly figures',
          category: 'Finance',
          keywords: 'money, months, money',
          price: 9.5,
          is_public: false,
          source: 'Statistics office',
          licence: 'CC BY 4.0',
          image: '/images/finance.png',
          dictionary: { amount: 'Units sold', day: ' Day of sale ' },
        })
        .expect(200);
      expect(response.body).toMatchObject({
        title: 'After',
        description: 'Monthly figures',
        category: 'Finance',
        keywords: ['money', 'months'],
        price: 9.5,
        is_public: false,
        source: 'Statistics office',
        licence: 'CC-BY-4.0',
        image: '/images/finance.png',
        dictionary: { amount: 'Units sold', day: 'Day of sale' },
      });
      // A blank description takes the column out of the dictionary; the others stay.
      const cleared = await owner.agent
        .patch(`/api/assets/${id}`)
        .set('Origin', TEST_ORIGIN)
        .send({ dictionary: { day: '' } })
        .expect(200);
      expect(cleared.body.dictionary).toEqual({ amount: 'Units sold' });
      expect(cleared.body.title).toBe('After');
    });

    it.each([
      [{ title: '   ' }, 'Title is required'],
      [{ price: '-1' }, 'Price must be a non-negative amount with at most two decimals.'],
      [{ price: '2000000' }, 'Price must be at most 1,000,000.'],
      [{ is_public: 'maybe' }, 'is_public must be true or false'],
      [
        { image: 'javascript:alert(1)' },
        'Image must be an http(s) URL or a path on this site starting with /',
      ],
      [{ dictionary: { nope: 'x' } }, 'The dataset has no column "nope".'],
      [{ dictionary: { amount: 7 } }, 'The description of "amount" must be text.'],
      [{ owner_id: 'someone' }, 'property owner_id should not exist'],
    ])('refuses %j with a clear message and changes nothing', async (body, message) => {
      const id = await uploadSettled(owner.agent, { title: 'Unchanged', price: '3' }, FIRST);
      const before = await testApp.dataSource.query(`SELECT * FROM assets WHERE id = $1`, [id]);
      const response = await owner.agent.patch(`/api/assets/${id}`).set('Origin', TEST_ORIGIN).send(body);
      expect(response.status).toBe(400);
      expect(messagesOf(response.body)).toContain(message);
      expect(await testApp.dataSource.query(`SELECT * FROM assets WHERE id = $1`, [id])).toEqual(before);
    });
  });

  describe('POST assets/{id}/refresh', () => {
    it('replaces the rows, recomputes the profile and keeps a version per load', async () => {
      const id = await uploadSettled(owner.agent, { title: 'Replace me' }, FIRST);
      const next = 'name,amount,day\ndelta,10,2024-02-01\nepsilon,20,2024-02-02\n';
      const response = await refresh(owner.agent, id, next, 'replace').expect(200);
      expect(response.body).toEqual({ id, mode: 'replace', rows_loaded: 2, row_count: 2 });
      await profilesSettled();
      expect(await rowsOf(id)).toEqual([
        { name: 'delta', amount: 10, day: '2024-02-01' },
        { name: 'epsilon', amount: 20, day: '2024-02-02' },
      ]);
      const detail = (await owner.agent.get(`/api/assets/${id}`).expect(200)).body;
      expect(detail.row_count).toBe(2);
      expect(detail.byte_count).toBe(Buffer.byteLength(next));
      expect(detail.profile.find((column: { name: string }) => column.name === 'amount')).toMatchObject({
        min: 10,
        max: 20,
      });
      expect(
        detail.versions.map((version: { mode: string; row_count: number }) => [
          version.mode,
          version.row_count,
        ]),
      ).toEqual([
        ['replace', 2],
        ['initial', 3],
      ]);
      expect(detail.versions[0]).toMatchObject({
        loaded_by: 'Olga Owner',
        byte_count: Buffer.byteLength(next),
      });
      expect(await orphanDatasetTables(testApp.dataSource)).toEqual([]);
      await expectNoIngestConnections(testApp);
    });

    it('appends rows in file order, casting into the dataset’s types (whole numbers into a decimal column)', async () => {
      const id = await uploadSettled(owner.agent, { title: 'Append to me' }, 'name,price\na,1.5\nb,2.25\n');
      const response = await refresh(owner.agent, id, 'name,price\nc,3\nd,4\n', 'append').expect(200);
      expect(response.body).toEqual({ id, mode: 'append', rows_loaded: 2, row_count: 4 });
      await profilesSettled();
      expect(await rowsOf(id)).toEqual([
        { name: 'a', price: 1.5 },
        { name: 'b', price: 2.25 },
        { name: 'c', price: 3 },
        { name: 'd', price: 4 },
      ]);
      const detail = (await owner.agent.get(`/api/assets/${id}`).expect(200)).body;
      expect(detail.columns.map((column: { type: string }) => column.type)).toEqual(['text', 'numeric']);
      expect(detail.versions.map((version: { mode: string }) => version.mode)).toEqual(['append', 'initial']);
      expect(detail.profile[1]).toMatchObject({ name: 'price', min: 1.5, max: 4, distinctCount: 4 });
    });

    it.each([
      [
        'replace',
        'other,columns\n1,2\n',
        "The file's columns (other, columns) are not the dataset's (name, amount, day). A refresh needs the same header.",
      ],
      [
        'append',
        'name,amount\nx,1\n',
        "The file's columns (name, amount) are not the dataset's (name, amount, day). A refresh needs the same header.",
      ],
      [
        'append',
        'name,amount,day\nx,lots,2024-01-01\n',
        'Column "amount" expects integer, but line 2 has "lots"',
      ],
      ['replace', 'name,amount,day\nx,1,soon\n', 'Column "day" expects date, but line 2 has "soon"'],
      [
        'replace',
        'name,amount,day\na,1,2024-01-01\nb,,2024-01-02\n"c, the third",abc,2024-01-03\nd,def,2024-01-04\n',
        'Column "amount" expects integer, but line 4 has "abc"',
      ],
      [
        'append',
        'name,amount,day\na,1,2024-01-01\nb,2.5,2024-01-02\n',
        'Column "amount" expects integer, but line 3 has "2.5"',
      ],
      [
        'append',
        `name,amount,day\na,1,2024-01-01\nb,2,${'n'.repeat(30)} ${'m'.repeat(30)}\n`,
        `Column "day" expects date, but line 3 has "${'n'.repeat(30)} ${'m'.repeat(9)}…"`,
      ],
      [
        'replace',
        'name,amount,day\na,1,2024-01-01\nb,2,2023-02-30\n',
        'Column "day" expects date, but line 3 has "2023-02-30"',
      ],
      ['replace', 'name,amount,day\n', 'The file has a header line but no data rows.'],
      ['sideways', FIRST, 'mode must be replace or append'],
    ])('refuses a %s with %j and changes nothing', async (mode, csv, message) => {
      const id = await uploadSettled(owner.agent, { title: 'Keep me' }, FIRST);
      const before = await stateOf(id);
      const response = await refresh(owner.agent, id, csv, mode);
      expect(response.status).toBe(400);
      expect(messagesOf(response.body)).toContain(message);
      expect(await stateOf(id)).toEqual(before);
      const versions = await testApp.dataSource.query(
        `SELECT mode FROM dataset_versions WHERE asset_id = $1`,
        [id],
      );
      expect(versions).toEqual([{ mode: 'initial' }]);
      expect(await orphanDatasetTables(testApp.dataSource)).toEqual([]);
      await expectNoIngestConnections(testApp);
    });

    it('names the line of a value that does not fit far down a long file', async () => {
      const id = await uploadSettled(owner.agent, { title: 'Long refresh' }, FIRST);
      const before = await stateOf(id);
      const good = Array.from({ length: 25_000 }, (_, index) => `row${index},${index},2024-01-01\n`).join('');
      const response = await refresh(
        owner.agent,
        id,
        `name,amount,day\n${good}late,1e400x,2024-01-01\n`,
        'replace',
      );
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('Column "amount" expects integer, but line 25002 has "1e400x"');
      expect(await stateOf(id)).toEqual(before);
    });

    it('lets a column the file leaves empty into any type', async () => {
      const id = await uploadSettled(owner.agent, { title: 'Gaps' }, FIRST);
      await refresh(owner.agent, id, 'name,amount,day\nzeta,,\n', 'append').expect(200);
      expect((await rowsOf(id)).at(-1)).toEqual({ name: 'zeta', amount: null, day: null });
    });

    it('shows readers the old rows until the new ones commit, never a mix', async () => {
      for (const mode of ['replace', 'append'] as const) {
        const id = await uploadSettled(owner.agent, { title: `Readers ${mode}` }, FIRST);
        const before = await rowsOf(id);
        const staged = await testApp.app
          .get(CsvIngestService)
          .stage(Readable.from([Buffer.from('name,amount,day\nnew,99,2025-01-01\n')]), await columnsOf(id));
        // Loaded but not committed: every reader still sees the old rows and counts.
        expect(await rowsOf(id)).toEqual(before);
        const [{ count }] = await testApp.dataSource.query(
          `SELECT row_count::int AS count FROM assets WHERE id = $1`,
          [id],
        );
        expect(count).toBe(3);
        await testApp.app
          .get(DatasetOwnerService)
          .refresh({ ...owner.user, proUser: false, blogEditor: false }, id, mode, staged);
        const after = await rowsOf(id);
        expect(after).toEqual(
          mode === 'replace'
            ? [{ name: 'new', amount: 99, day: '2025-01-01' }]
            : [...before, { name: 'new', amount: 99, day: '2025-01-01' }],
        );
      }
    });

    it('refuses a file staged for other columns than the dataset has now, and changes nothing', async () => {
      const id = await uploadSettled(owner.agent, { title: 'Columns elsewhere' }, FIRST);
      const before = await stateOf(id);
      const columns = (await columnsOf(id)).map((column) =>
        column.name === 'amount' ? { ...column, type: 'numeric' as const } : column,
      );
      const staged = await testApp.app
        .get(CsvIngestService)
        .stage(Readable.from([Buffer.from('name,amount,day\nnew,1.5,2025-01-01\n')]), columns);
      await expect(
        testApp.app
          .get(DatasetOwnerService)
          .refresh({ ...owner.user, proUser: false, blogEditor: false }, id, 'replace', staged),
      ).rejects.toMatchObject({ status: 409, message: COLUMNS_CHANGED });
      expect(await stateOf(id)).toEqual(before);
      expect(await orphanDatasetTables(testApp.dataSource)).toEqual([]);
      await expectNoIngestConnections(testApp);
    });

    it('leaves nothing behind when the loading connection dies mid-file (a killed process)', async () => {
      const id = await uploadSettled(owner.agent, { title: 'Killed load' }, FIRST);
      const before = await stateOf(id);
      const source = new PassThrough();
      source.write('name,amount,day\n');
      for (let index = 0; index < 2000; index++) source.write(`row${index},${index},2024-03-01\n`);
      const staging = testApp.app.get(CsvIngestService).stage(source);
      // Wait for the load's connection, then end it the way a dying process would.
      for (let attempt = 0; attempt < 100; attempt++) {
        const [row] = await testApp.dataSource.query(
          `SELECT count(*)::int AS open FROM pg_stat_activity WHERE application_name = 'dataset-ingest' AND datname = current_database()`,
        );
        if (row.open > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await testApp.dataSource.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'dataset-ingest' AND datname = current_database()`,
      );
      source.end('last,1,2024-03-02\n');
      await expect(staging).rejects.toBeDefined();
      expect(await stateOf(id)).toEqual(before);
      expect(await orphanDatasetTables(testApp.dataSource)).toEqual([]);
    });

    it('does not wait for a profile still reading the rows it replaces: it ends it and profiles the new rows', async () => {
      const id = await uploadSettled(owner.agent, { title: 'Profiled meanwhile' }, FIRST);
      const [{ table_name: tableName }] = await testApp.dataSource.query(
        `SELECT table_name FROM assets WHERE id = $1`,
        [id],
      );
      // A profile in the middle of its snapshot: it holds a read lock on the old table until it ends.
      const profile = dedicatedClient(testApp.dataSource, PROFILE_APPLICATION_NAME);
      profile.on('error', () => undefined);
      await profile.connect();
      try {
        await profile.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        await profile.query(`SELECT count(*) FROM ${dataTable(tableName)}`);
        const next = 'name,amount,day\ndelta,10,2024-02-01\n';
        await refresh(owner.agent, id, next, 'replace').expect(200);
        await expect(profile.query('SELECT 1')).rejects.toThrow();
      } finally {
        await profile.end().catch(() => undefined);
      }
      await profilesSettled();
      const detail = (await owner.agent.get(`/api/assets/${id}`).expect(200)).body;
      expect(detail.profile.find((column: { name: string }) => column.name === 'amount')).toMatchObject({
        min: 10,
        max: 10,
      });
    });

    it('indexes the rows on the row id after the first load and after each replace', async () => {
      const id = await uploadSettled(owner.agent, { title: 'Indexed' }, FIRST);
      const tableOf = async () =>
        (await testApp.dataSource.query(`SELECT table_name FROM assets WHERE id = $1`, [id]))[0].table_name;
      const sql = sqlOn(testApp.dataSource);
      expect(await hasColumnIndex(sql, await tableOf(), ROW_ID_COLUMN)).toBe(true);
      await refresh(owner.agent, id, 'name,amount,day\ndelta,10,2024-02-01\n', 'replace').expect(200);
      await profilesSettled();
      expect(await hasColumnIndex(sql, await tableOf(), ROW_ID_COLUMN)).toBe(true);
    });

    it('never reads the file of someone who does not own the dataset', async () => {
      const id = await uploadSettled(owner.agent, { title: 'Not yours' }, FIRST);
      const response = await refresh(buyer.agent, id, 'name,amount,day\nx,1,2024-01-01\n', 'replace');
      expect(response.status).toBe(403);
      expect(response.body.error).toBe('Only the owner can manage this dataset');
      expect(await rowsOf(id)).toHaveLength(3);
    });
  });

  describe('DELETE assets/{id}', () => {
    it('removes rows, table and grants, keeps purchases of a buyer who gave it up, and says how many holders lost access', async () => {
      const id = await uploadSettled(owner.agent, { title: 'Delete me', price: '4.00' }, FIRST);
      await buyer.agent
        .post('/api/access/grant')
        .set('Origin', TEST_ORIGIN)
        .send({ assetId: id })
        .expect(200);
      // Nobody holds it through a purchase any more, so the delete is a real one.
      await buyer.agent
        .post('/api/access/remove')
        .set('Origin', TEST_ORIGIN)
        .send({ assetId: id })
        .expect(200);
      const freeHolder = await createLoggedInUser(testApp);
      await testApp.dataSource.query(
        `INSERT INTO access_grants (user_id, asset_id, reason) VALUES ($1, $2, 'free')`,
        [freeHolder.user.id, id],
      );
      const [{ table_name: tableName }] = await testApp.dataSource.query(
        `SELECT table_name FROM assets WHERE id = $1`,
        [id],
      );
      const purchasesBefore = await testApp.dataSource.query(
        `SELECT id, amount, status FROM purchases WHERE user_id = $1 AND asset_id = $2`,
        [buyer.user.id, id],
      );
      expect(purchasesBefore).toHaveLength(1);
      const response = await owner.agent.delete(`/api/assets/${id}`).set('Origin', TEST_ORIGIN).expect(200);
      expect(response.body).toEqual({ message: 'Dataset deleted.', id, holders_lost_access: 1 });
      await owner.agent.get(`/api/assets/${id}`).expect(404);
      const [table] = await testApp.dataSource.query(`SELECT to_regclass($1) AS found`, [
        `data.${tableName}`,
      ]);
      expect(table.found).toBeNull();
      expect(await testApp.dataSource.query(`SELECT * FROM access_grants WHERE asset_id = $1`, [id])).toEqual(
        [],
      );
      const purchasesAfter = await testApp.dataSource.query(
        `SELECT id, amount, status, asset_id FROM purchases WHERE id = $1`,
        [purchasesBefore[0].id],
      );
      expect(purchasesAfter).toEqual([{ ...purchasesBefore[0], asset_id: null }]);
    });
  });

  describe('DELETE connectors/{id}', () => {
    it('lets the uploader delete a connector with every instance and its table; others who see it get 403', async () => {
      const uploaded = await owner.agent
        .post('/api/connectors/upload')
        .set('Origin', TEST_ORIGIN)
        .send({ title: 'Deletable connector', spec: simpleSpec('http://127.0.0.1:9') })
        .expect(201);
      const connectorId = uploaded.body.id;
      const activated = await buyer.agent
        .post('/api/connectors/activate')
        .set('Origin', TEST_ORIGIN)
        .send({ connector_id: connectorId })
        .expect(201);
      const [{ output_table_name: tableName }] = await testApp.dataSource.query(
        `SELECT output_table_name FROM connector_instances WHERE id = $1`,
        [activated.body.id],
      );
      await testApp.dataSource.query(`CREATE TABLE IF NOT EXISTS data.${tableName} (x int)`);
      const refused = await buyer.agent.delete(`/api/connectors/${connectorId}`).set('Origin', TEST_ORIGIN);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe('Only the owner can manage this connector');
      await owner.agent.get(`/api/connectors/${connectorId}`).expect(200);
      const response = await owner.agent
        .delete(`/api/connectors/${connectorId}`)
        .set('Origin', TEST_ORIGIN)
        .expect(200);
      expect(response.body).toEqual({ message: 'Connector deleted.' });
      await owner.agent.get(`/api/connectors/${connectorId}`).expect(404);
      expect(
        await testApp.dataSource.query(`SELECT id FROM connector_instances WHERE connector_id = $1`, [
          connectorId,
        ]),
      ).toEqual([]);
      const [table] = await testApp.dataSource.query(`SELECT to_regclass($1) AS found`, [
        `data.${tableName}`,
      ]);
      expect(table.found).toBeNull();
    });

    it("tells its uploader, before deleting, how many of other users' connections would stop", async () => {
      const uploaded = await owner.agent
        .post('/api/connectors/upload')
        .set('Origin', TEST_ORIGIN)
        .send({ title: 'Counted connector', spec: simpleSpec('http://127.0.0.1:9') })
        .expect(201);
      const connectorId = uploaded.body.id;
      const connect = (agent: Agent) =>
        agent
          .post('/api/connectors/activate')
          .set('Origin', TEST_ORIGIN)
          .send({ connector_id: connectorId })
          .expect(201);
      const otherConnectionsSeenBy = async (agent: Agent) => {
        const detail = (await agent.get(`/api/connectors/${connectorId}`).expect(200)).body;
        const listed = (await agent.get('/api/connectors').expect(200)).body.find(
          (item: { id: string }) => item.id === connectorId,
        );
        expect(listed.other_connections).toBe(detail.other_connections);
        return detail.other_connections;
      };
      expect(await otherConnectionsSeenBy(owner.agent)).toBe(0);
      // The uploader's own connection is no other user's; each of another user's instances counts.
      await connect(owner.agent);
      await connect(buyer.agent);
      await connect(buyer.agent);
      const third = await createLoggedInUser(testApp);
      await connect(third.agent);
      expect(await otherConnectionsSeenBy(owner.agent)).toBe(3);
      expect(await otherConnectionsSeenBy(buyer.agent)).toBeNull();
      expect(await otherConnectionsSeenBy(testApp.http as unknown as Agent)).toBeNull();
    });
  });
});
