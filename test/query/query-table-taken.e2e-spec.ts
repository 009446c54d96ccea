import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { RateLimiterService } from '../../src/common/rate-limit/rate-limiter.service';
import { QueryRoles } from '../../src/query/run/query-roles.service';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

type Agent = TestAgent<Test>;

const TAKEN = /deleted or replaced while your query ran/;
/** Far more work than the test ever waits for: the owner's action ends it. */
const ENDLESS = '100000000000';

/**
 * An owner's replace, refresh or delete ends users' queries still reading the table after a short
 * wait (see takeTable). The reader is told so in plain words, as a conflict of theirs to retry:
 * never "Database unavailable", and an answer already under way says it failed.
 */
describe('POST /api/query: the owner replaces or deletes the dataset while it is read', () => {
  let testApp: TestApp;
  let owner: Agent;
  let ownerId: string;
  let login: string;

  beforeAll(async () => {
    testApp = await createTestApp({ QUERY_TIMEOUT_MS: '60000' });
    const created = await createLoggedInUser(testApp);
    owner = created.agent;
    ownerId = created.user.id;
    login = await testApp.app.get(QueryRoles).userRole(ownerId);
  });
  afterAll(() => testApp.close());
  beforeEach(() => testApp.app.get(RateLimiterService).reset(`query:${ownerId}`));

  const readableName = async (id: string) =>
    (await owner.get(`/api/assets/${id}`).expect(200)).body.readable_name as string;

  const running = async (): Promise<number> =>
    (
      await testApp.dataSource.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE usename = $1 AND state = 'active' AND query LIKE '%' || $2 || '%'`,
        [login, ENDLESS],
      )
    )[0].n;

  const waitForRunning = async () => {
    const deadline = Date.now() + 20_000;
    while ((await running()) === 0) {
      if (Date.now() > deadline) throw new Error('the query did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  const query = (sql: string) =>
    owner
      .post('/api/query')
      .set('Origin', TEST_ORIGIN)
      .send({ sql })
      .then((response) => response);

  it('a query working towards its first row answers 409 in plain words when the owner deletes the dataset', async () => {
    const id = await uploadDataset(owner, { is_public: 'false' });
    const table = await readableName(id);
    const answer = query(`SELECT count(*) FROM ${table}, generate_series(1, ${ENDLESS}) g`);
    await waitForRunning();
    await owner.delete(`/api/assets/${id}`).set('Origin', TEST_ORIGIN).expect(200);
    const response = await answer;
    expect(response.status).toBe(409);
    expect(response.body.message).toMatch(TAKEN);
  });

  it('and so when the owner replaces its rows', async () => {
    const id = await uploadDataset(owner, { is_public: 'false' });
    const table = await readableName(id);
    const answer = query(`SELECT count(*) FROM ${table}, generate_series(1, ${ENDLESS}) g`);
    await waitForRunning();
    await owner
      .post(`/api/assets/${id}/refresh`)
      .set('Origin', TEST_ORIGIN)
      .field('mode', 'replace')
      .attach('file', Buffer.from('name,amount\ndelta,4\n'), 'next.csv')
      .expect(200);
    const response = await answer;
    expect(response.status).toBe(409);
    expect(response.body.message).toMatch(TAKEN);
  });

  it('a JSON answer already under way ends saying it failed, and why', async () => {
    const id = await uploadDataset(owner, { is_public: 'false' });
    const table = await readableName(id);
    // A first batch goes out at once (with more rows than the server keeps in its send buffer);
    // a row after it works on until the owner's delete ends it.
    const answer = query(
      `SELECT g, CASE WHEN g <= 1100 THEN repeat('x', 1000)
                      ELSE (SELECT count(*)::text FROM ${table}, generate_series(g, ${ENDLESS}) s) END AS v
         FROM generate_series(1, 1200) g`,
    );
    await waitForRunning();
    await owner.delete(`/api/assets/${id}`).set('Origin', TEST_ORIGIN).expect(200);
    const response = await answer;
    expect(response.status).toBe(200);
    expect(response.body.rows.length).toBeLessThan(1200);
    expect(response.body.truncated).toBe(true);
    expect(response.body.error).toMatch(TAKEN);
  });
});
