import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { yieldCpuToProduct } from '../../src/query/run/backend-priority';
import { QueryRoles } from '../../src/query/run/query-roles.service';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp, testDatabaseUrl } from '../support/test-app';

/** A statement that runs until its limit stops it. */
const LONG = 'SELECT count(*) FROM (SELECT generate_series(1, 100000000000)) s';

/** The nice value of a process of this machine (field 19 of /proc/<pid>/stat). */
function niceOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

/**
 * On a database server of the same machine (the embedded one, or a server beside the app), a
 * user statement's server process runs at a lower CPU priority than the product's own requests.
 */
describe('POST /api/query: CPU priority of user statements', () => {
  let testApp: TestApp;
  let admin: Client;

  beforeAll(async () => {
    testApp = await createTestApp({ QUERY_TIMEOUT_MS: '4000' });
    admin = new Client({ connectionString: testDatabaseUrl() });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await testApp.close();
  });

  it('lowers the priority of the user’s own backend while the statement runs, and of nothing else', async () => {
    const caller = await createLoggedInUser(testApp);
    const role = await testApp.app.get(QueryRoles).userRole(caller.user.id);
    const answer = caller.agent
      .post('/api/query')
      .set('Origin', TEST_ORIGIN)
      .send({ sql: LONG })
      .then((r) => r);
    let backend: number | undefined;
    const deadline = Date.now() + 15_000;
    while (backend === undefined && Date.now() < deadline) {
      const { rows } = await admin.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE usename = $1 AND state = 'active'`,
        [role],
      );
      backend = rows[0]?.pid;
      if (backend === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(backend).toBeDefined();
    expect(niceOf(backend!)).toBe(10);

    // The app's own connections keep their priority.
    const [{ pid: own }] = (await admin.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
    expect(niceOf(own)).toBe(0);
    expect((await answer).status).toBe(400);
  });

  it('leaves a process alone unless it is a PostgreSQL backend logged in as that role', async () => {
    const [{ pid: own }] = (await admin.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
    expect(yieldCpuToProduct(own, 'dq0_nobody')).toBe(false);
    expect(yieldCpuToProduct(process.pid, 'node')).toBe(false);
    expect(yieldCpuToProduct(undefined, 'dq0_nobody')).toBe(false);
    expect(niceOf(own)).toBe(0);
    expect(niceOf(process.pid)).toBe(0);
  });
});
