import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser, TestUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

type Agent = TestAgent<Test>;

const TEN_ROWS = `n\n${Array.from({ length: 10 }, (_, index) => index + 1).join('\n')}\n`;

/** Waits until `check` holds, polling; fails after `withinMs`. */
async function eventually(check: () => Promise<boolean>, withinMs: number): Promise<void> {
  const until = Date.now() + withinMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('POST /api/query: the workspace’s aborted fetch stops its query, and the history says Cancelled', () => {
  let testApp: TestApp;
  let owner: { user: TestUser; agent: Agent };
  let tableName: string;
  let baseUrl: string;
  let apiKey: string;

  beforeAll(async () => {
    // A statement limit far beyond the test, and an answer cap no machine reaches within it (the
    // default million rows can be produced before the first chunk is read): only the cancel can end
    // the query in time.
    testApp = await createTestApp({ QUERY_TIMEOUT_MS: '120000', QUERY_MAX_ROWS: '100000000' });
    owner = await createLoggedInUser(testApp);
    const datasetId = await uploadDataset(owner.agent, { title: 'Ten rows', is_public: 'false' }, TEN_ROWS);
    tableName = (await owner.agent.get(`/api/assets/${datasetId}`).expect(200)).body.readable_name;
    apiKey = (
      await owner.agent.post('/api/dev/apikey').set('Origin', TEST_ORIGIN).send({ email: owner.user.email })
    ).body.api_key;
    await testApp.app.listen(0, '127.0.0.1');
    baseUrl = (await testApp.app.getUrl()).replace('[::1]', '127.0.0.1');
  });
  afterAll(() => testApp.close());

  /** Backends busy with a statement that carries `marker`, running or paused mid-cursor (the polling itself excluded). */
  const running = async (marker: string): Promise<number> => {
    const rows = await testApp.dataSource.query(
      `SELECT pid FROM pg_stat_activity
       WHERE state <> 'idle' AND pid <> pg_backend_pid() AND position($1 in query) > 0`,
      [marker],
    );
    return rows.length;
  };

  /** Ten billion rows from a cross join of the ten-row table: minutes of work unless stopped. */
  const slowSql = (marker: string, select: string) =>
    `SELECT ${select} AS ${marker} FROM ${tableName} a, ${tableName} b, ${tableName} c, ${tableName} d,
       ${tableName} e, ${tableName} f, ${tableName} g, ${tableName} h, ${tableName} i, ${tableName} j`;

  /** Starts the query the way the workspace does (fetch), to abort it with `controller`. */
  const startQuery = (body: object, controller: AbortController) =>
    fetch(`${baseUrl}/api/query`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': apiKey },
      body: JSON.stringify(body),
      signal: controller.signal,
    });

  it('cancels a statement still working towards its first row when the request is aborted', async () => {
    const marker = 'cancel_probe_first_row';
    const controller = new AbortController();
    const answer = startQuery({ sql: slowSql(marker, 'count(*)') }, controller).then(
      () => 'answered',
      (error: Error) => error.name,
    );
    await eventually(async () => (await running(marker)) > 0, 10_000);
    // Still at work a second later: nothing but the cancel is going to stop it.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await running(marker)).toBeGreaterThan(0);
    controller.abort();
    expect(await answer).toBe('AbortError');
    await eventually(async () => (await running(marker)) === 0, 5000);
    await eventually(async () => {
      const [latest] = (await owner.agent.get('/api/query/history').expect(200)).body;
      return latest?.sql.includes(marker) && latest.error === 'Cancelled';
    }, 5000);
  });

  it('cancels a statement whose rows are streaming when the download is aborted', async () => {
    const marker = 'cancel_probe_streaming';
    const controller = new AbortController();
    const response = await startQuery({ sql: slowSql(marker, 'a.n * b.n'), format: 'csv' }, controller);
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    expect((await reader.read()).value?.length).toBeGreaterThan(0);
    expect(await running(marker)).toBeGreaterThan(0);
    controller.abort();
    await eventually(async () => (await running(marker)) === 0, 5000);
  });

  it('frees the caller’s running-query slots: new queries run right after', async () => {
    const response = await owner.agent
      .post('/api/query')
      .set('Origin', TEST_ORIGIN)
      .send({ sql: `SELECT count(*) FROM ${tableName}` })
      .expect(200);
    expect(response.body.rows).toEqual([[10]]);
  });
});
