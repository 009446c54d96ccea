import type TestAgent from 'supertest/lib/agent';
import { ColumnProfileService } from '../../src/assets/ingest/column-profile.service';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { grantAccess, setApiKey } from '../stream/stream.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

type Agent = InstanceType<typeof TestAgent>;

const ROWS = 300;
const csvOf = (tag: string, count: number) =>
  'name,amount\n' + Array.from({ length: count }, (_, i) => `${tag}${i},${i}`).join('\n') + '\n';

/**
 * A read at the instant a refresh puts its new rows in place must answer the old rows or the new
 * ones: never none (an empty file with 200 looks complete) and never an error.
 */
describe('readers during refreshes: old rows or new rows, never none', () => {
  let testApp: TestApp;
  let owner: { agent: Agent; user: { id: string } };
  /**
   * The stream link and OData read as a holder with a key of their own: one account runs at most
   * READS_PER_READER reads at once, and the owner's downloads already take four.
   */
  let holder: { id: string };
  let apiKey: string;

  beforeAll(async () => {
    testApp = await createTestApp();
    owner = await createLoggedInUser(testApp, { name: 'Rita Refresher' });
    holder = (await createLoggedInUser(testApp, { name: 'Hal Holder' })).user;
    apiKey = await setApiKey(testApp.dataSource, holder.id);
  });
  afterAll(() => testApp.close());

  /** Each reader answers how many rows it got (or throws on an answer that is not 200). */
  function readers(id: string, readable: string): Record<string, () => Promise<number>> {
    const ok = (status: number, what: string, text: string) => {
      if (status !== 200) throw new Error(`${what} answered ${status}: ${text.slice(0, 200)}`);
    };
    const get = async (path: string, query: Record<string, string> = {}) => {
      const response = await owner.agent.get(path).query(query).buffer(true);
      ok(response.status, path, response.text);
      return response;
    };
    const lines = (text: string) => text.split('\n').filter((line) => line.length > 0).length;
    return {
      grid: async () => (await get(`/api/assets/${id}/data`, { limit: '1000' })).body.rows.length,
      csvDownload: async () => lines((await get(`/api/downloads/${id}`, { format: 'csv' })).text) - 1,
      jsonDownload: async () =>
        JSON.parse((await get(`/api/downloads/${id}`, { format: 'json' })).text).length,
      stream: async () =>
        lines((await get(`/api/stream/data/${id}`, { format: 'ndjson', api_key: apiKey })).text),
      odata: async () =>
        (await get(`/api/odata/${readable}`, { api_key: apiKey, $count: 'true' })).body['@odata.count'],
      query: async () => {
        const response = await owner.agent
          .post('/api/query')
          .set('Origin', TEST_ORIGIN)
          .send({ sql: `SELECT count(*)::int AS n FROM ${readable}` });
        ok(response.status, 'query', response.text);
        return response.body.rows[0][0] ?? response.body.rows[0].n;
      },
    };
  }

  it('answers every read path with whole rows while the dataset is replaced and appended in a loop', async () => {
    const id = await uploadDataset(owner.agent, { title: 'Refreshed under readers' }, csvOf('a', ROWS));
    await testApp.app.get(ColumnProfileService).settled();
    const readable = (await owner.agent.get(`/api/assets/${id}`).expect(200)).body.readable_name;
    await grantAccess(testApp.dataSource, holder.id, id);
    const paths = readers(id, readable);
    for (const [name, read] of Object.entries(paths)) expect([name, await read()]).toEqual([name, ROWS]);

    let refreshing = true;
    const failures: string[] = [];
    const counts: Record<string, number> = {};
    const readLoop = async (name: string, read: () => Promise<number>) => {
      while (refreshing) {
        try {
          const rows = await read();
          counts[name] = (counts[name] ?? 0) + 1;
          if (!(rows >= ROWS)) failures.push(`${name}: ${rows} rows`);
        } catch (error) {
          failures.push(`${name}: ${(error as Error).message}`);
        }
      }
    };
    const loops = Object.entries(paths).flatMap(([name, read]) => [
      readLoop(name, read),
      readLoop(name, read),
    ]);
    try {
      for (let round = 0; round < 16; round++) {
        const mode = round % 4 === 3 ? 'append' : 'replace';
        const csv = mode === 'replace' ? csvOf(`r${round}_`, ROWS) : csvOf(`p${round}_`, 5);
        const response = await owner.agent
          .post(`/api/assets/${id}/refresh`)
          .set('Origin', TEST_ORIGIN)
          .field('mode', mode)
          .attach('file', Buffer.from(csv), 'next.csv');
        expect(response.status).toBe(200);
      }
    } finally {
      refreshing = false;
      await Promise.all(loops);
    }
    await testApp.app.get(ColumnProfileService).settled();
    expect(failures).toEqual([]);
    for (const name of Object.keys(paths)) expect(counts[name]).toBeGreaterThan(0);
  }, 180_000);

  it('does not let a user’s long SQL hold up the owner’s replace or delete', async () => {
    const id = await uploadDataset(owner.agent, { title: 'Held by a query' }, csvOf('h', 10));
    await testApp.app.get(ColumnProfileService).settled();
    const readable = (await owner.agent.get(`/api/assets/${id}`).expect(200)).body.readable_name;
    const holdTable = () => {
      const answer = owner.agent
        .post('/api/query')
        .set('Origin', TEST_ORIGIN)
        .send({
          sql: `SELECT count(*) AS held_by_query FROM ${Array.from('abcdefghij', (alias) => `${readable} ${alias}`).join(', ')}`,
        })
        .then((response) => response.status);
      return answer;
    };
    const sleeping = async () =>
      (
        await testApp.dataSource.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%held_by_query%' AND pid <> pg_backend_pid()`,
        )
      )[0].n as number;
    const untilSleeping = async () => {
      const end = Date.now() + 20_000;
      while ((await sleeping()) === 0) {
        if (Date.now() > end) throw new Error('the query never started');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    // A cross join of ten rows ten times (10^10 rows): minutes of work, far beyond the owner's short wait.
    const held = holdTable();
    await untilSleeping();
    let started = Date.now();
    await owner.agent
      .post(`/api/assets/${id}/refresh`)
      .set('Origin', TEST_ORIGIN)
      .field('mode', 'replace')
      .attach('file', Buffer.from(csvOf('n', 10)), 'next.csv')
      .expect(200);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await held).not.toBe(200);

    const heldAgain = holdTable();
    await untilSleeping();
    started = Date.now();
    await owner.agent.delete(`/api/assets/${id}`).set('Origin', TEST_ORIGIN).expect(200);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await heldAgain).not.toBe(200);
  }, 120_000);
});
