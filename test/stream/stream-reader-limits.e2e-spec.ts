import type { Server } from 'node:http';
import { Client } from 'pg';
import request from 'supertest';
import { READS_PER_READER, TOO_MANY_READS } from '../../src/stream/copy-out';
import { createTestApp, TestApp, testDatabaseUrl } from '../support/test-app';
import { createDataset, createUserWithApiKey } from './stream.factory';

const COLUMNS = [{ name: 'n', label: 'n', sqlType: 'integer', type: 'integer' }];

/**
 * A read (download, stream link, OData page) whose statement has not answered yet (sorting a big
 * table, or waiting on a lock) used to run on in PostgreSQL after its answer gave up with 503, to
 * the stream's own limit; and one account could start such reads faster than they ended, each
 * keeping a server process busy. Now the app cancels the statement when it gives up, and one
 * account has at most READS_PER_READER reads running at once.
 *
 * The tests keep a read's statement from answering by holding an index of its table locked
 * (REINDEX, left open): PostgreSQL's planner waits for it inside the COPY, before any row.
 */
describe('GET /api/stream and /odata: what one reader can keep running', () => {
  const blockers: Client[] = [];

  afterEach(async () => {
    for (const blocker of blockers.splice(0)) await blocker.end().catch(() => undefined);
  });

  /** Holds an index of `table` locked until the returned client ends its transaction. */
  async function holdIndexOf(testApp: TestApp, table: string): Promise<Client> {
    await testApp.dataSource.query(`CREATE INDEX ${table}_blocker ON data.${table} (n)`);
    const blocker = new Client({ connectionString: testDatabaseUrl() });
    await blocker.connect();
    blockers.push(blocker);
    await blocker.query(`BEGIN; REINDEX INDEX data.${table}_blocker`);
    return blocker;
  }

  /** Statements reading `table` that wait on a lock. */
  const waiting = async (testApp: TestApp, table: string): Promise<number> =>
    (
      await testApp.dataSource.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE query LIKE 'COPY%' AND query LIKE '%' || $1 || '%' AND wait_event_type = 'Lock'`,
        [table],
      )
    )[0].n;

  const readableName = async (testApp: TestApp, id: string): Promise<string> =>
    (await testApp.dataSource.query(`SELECT readable_name FROM assets WHERE id = $1`, [id]))[0].readable_name;

  const until = async (condition: () => Promise<boolean>, what: string) => {
    const deadline = Date.now() + 30_000;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  describe('a read that gave up', () => {
    let testApp: TestApp;

    // An answer is due within the statement limit and a second: two seconds here.
    beforeAll(async () => {
      testApp = await createTestApp({ DATABASE_STATEMENT_TIMEOUT_MS: '1000' });
    });
    afterAll(() => testApp.close());

    it.each([
      ['a stream link', (id: string) => `/api/stream/data/${id}?format=csv`],
      ['an OData page', (_id: string, name: string) => `/api/odata/${name}`],
    ])('ends its statement at once when %s answers 503', async (_what, path) => {
      const reader = await createUserWithApiKey(testApp.dataSource);
      const dataset = await createDataset(testApp.dataSource, {
        ownerId: reader.user.id,
        columns: COLUMNS,
        rowsSql: 'SELECT g FROM generate_series(1, 1000) g',
      });
      await holdIndexOf(testApp, dataset.tableName);
      const answer = await request(testApp.app.getHttpServer())
        .get(path(dataset.id, await readableName(testApp, dataset.id)))
        .set('X-Api-Key', reader.apiKey);
      expect(answer.status).toBe(503);
      // Without the cancel it waited on for the stream's limit (an hour), holding its connection.
      await until(async () => (await waiting(testApp, dataset.tableName)) === 0, 'the statement ended');
    });
  });

  describe('reads at once', () => {
    let testApp: TestApp;
    let server: Server;

    beforeAll(async () => {
      testApp = await createTestApp({ DATABASE_STATEMENT_TIMEOUT_MS: '30000' });
      server = testApp.app.getHttpServer();
    });
    afterAll(() => testApp.close());

    it(`lets one account run ${READS_PER_READER} at a time, and others theirs`, async () => {
      const reader = await createUserWithApiKey(testApp.dataSource);
      const other = await createUserWithApiKey(testApp.dataSource);
      const held = await createDataset(testApp.dataSource, {
        ownerId: reader.user.id,
        columns: COLUMNS,
        rowsSql: 'SELECT g FROM generate_series(1, 1000) g',
      });
      const others = await createDataset(testApp.dataSource, {
        ownerId: other.user.id,
        columns: COLUMNS,
        rowsSql: 'SELECT g FROM generate_series(1, 10) g',
      });
      const blocker = await holdIndexOf(testApp, held.tableName);
      const read = (apiKey: string, path: string) => request(server).get(path).set('X-Api-Key', apiKey);
      const running = Array.from({ length: READS_PER_READER }, (_, index) =>
        read(reader.apiKey, `/api/stream/data/${held.id}?format=${index % 2 ? 'csv' : 'json'}`).then(
          (r) => r,
        ),
      );
      await until(async () => (await waiting(testApp, held.tableName)) === READS_PER_READER, 'all reads run');

      const entitySet = await readableName(testApp, held.id);
      for (const path of [`/api/stream/data/${held.id}?format=csv`, `/api/odata/${entitySet}`]) {
        const refused = await read(reader.apiKey, path);
        expect(refused.status).toBe(429);
        // OData answers errors in its own shape: {"error": {"code", "message"}}.
        expect(refused.body.message ?? refused.body.error.message).toBe(TOO_MANY_READS);
        expect(refused.headers['retry-after']).toBeDefined();
      }
      // Another account reads as usual meanwhile.
      const theirs = await read(other.apiKey, `/api/stream/data/${others.id}?format=csv`);
      expect(theirs.status).toBe(200);
      expect(theirs.text.trim().split('\n')).toHaveLength(11);

      await blocker.query('ROLLBACK');
      for (const answer of await Promise.all(running)) expect(answer.status).toBe(200);
      // The places are given back with the reads.
      expect((await read(reader.apiKey, `/api/stream/data/${held.id}?format=csv`)).status).toBe(200);
    }, 90_000);
  });
});
