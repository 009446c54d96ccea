import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

/** A branch that sorts about 0.9 MB of rows in one sort node, well under the role's work_mem. */
const BRANCH = '(SELECT g, x FROM generate_series(1, 3500) g, w ORDER BY x, g DESC OFFSET 3499)';
const branches = (count: number) =>
  `WITH w AS MATERIALIZED (SELECT repeat('x', 200) AS x) SELECT count(*) FROM (${Array.from(
    { length: count },
    () => BRANCH,
  ).join(' UNION ALL ')}) AS s`;

/**
 * work_mem bounds each sort, hash and tuplestore of a plan, not the statement: a thousand sorting
 * branches held gigabytes in one backend, all in memory. The statement's work_mem is now its
 * budget (QUERY_MEMORY_MB, 8 MB here) shared among its plan's memory nodes, so many sorts that
 * together pass it spill to temporary files, while one sort of the same size stays in memory.
 */
describe('POST /api/query: the memory budget of one statement', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp({ QUERY_MEMORY_MB: '8', QUERY_TIMEOUT_MS: '60000' });
  });
  afterAll(() => testApp.close());

  /** Temporary files written in the test database so far (sessions report theirs as they end). */
  const tempFiles = async (): Promise<number> =>
    Number(
      (
        await testApp.dataSource.query(
          `SELECT temp_files FROM pg_stat_database WHERE datname = current_database()`,
        )
      )[0].temp_files,
    );

  it('spills many sorts that pass the budget together, and answers them exactly', async () => {
    const { agent } = await createLoggedInUser(testApp);
    const query = (sql: string) => agent.post('/api/query').set('Origin', TEST_ORIGIN).send({ sql });
    // One such sort fits the budget: answered in memory (other suites may write temporary files
    // in this database meanwhile, so only the spill of the many is looked for).
    const one = await query(branches(1));
    expect(one.status).toBe(200);
    expect(one.body.rows).toEqual([[1]]);

    const before = await tempFiles();
    const many = await query(branches(30));
    expect(many.status).toBe(200);
    expect(many.body.rows).toEqual([[30]]);
    // Each sort got a thirtieth (and less) of 8 MB: they spilled. With the role's 64 MB each, none did.
    const deadline = Date.now() + 15_000;
    while ((await tempFiles()) === before && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await tempFiles()) - before).toBeGreaterThanOrEqual(30);
  }, 90_000);
});
