import { readFileSync } from 'node:fs';
import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { runMigrations } from '../../src/database/migrate';
import { QueryRoles } from '../../src/query/run/query-roles.service';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestDatabase, TestDatabase } from '../setup/test-database';
import { createTestAppOn, TEST_ORIGIN, TestApp } from '../support/test-app';

type Agent = TestAgent<Test>;

const CAP = 'a value built by a query may be at most 16 MB';
const MB = 1024 * 1024;

/** A backend's private memory (anonymous pages: not the shared buffers it touched), when readable. */
function privateBytes(pid: number): number | undefined {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^RssAnon:\s+(\d+) kB/m);
    return line ? Number(line[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What one user statement may take of the database server's memory, and all of them together:
 * a value built in one call stops at 16 MB, and QUERY_MAX_CONCURRENT statements each sorting and
 * hashing as much as they can stay within work_mem × hash_mem_multiplier per node.
 */
describe('POST /api/query: memory a statement may take', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  let agents: Agent[];

  beforeAll(async () => {
    database = await createTestDatabase('dm_query_memory');
    await runMigrations(database.url);
    testApp = await createTestAppOn(database.url, {
      QUERY_TIMEOUT_MS: '60000',
      QUERY_MAX_CONCURRENT: '2',
      QUERY_QUEUE_MS: '200',
    });
    agents = await Promise.all([1, 2, 3].map(async () => (await createLoggedInUser(testApp)).agent));
  });
  afterAll(async () => {
    await testApp.close();
    await database.drop();
  });

  const query = (agent: Agent, body: object) =>
    agent.post('/api/query').set('Origin', TEST_ORIGIN).send(body);

  it.each([
    ["repeat('x', 100000000)"],
    ["lpad('x', 100000000)"],
    ["rpad('x', 20000000, 'éé')"],
    ["length(repeat('abc', 500000000))"],
    // Each of a million characters replaced by 100 of them: 100 MB.
    ["length(replace(repeat('a', 1000000), 'a', repeat('b', 100)))"],
    ["length(regexp_replace(repeat('a', 1000000), 'a', repeat('b', 100), 'g'))"],
    ["length(regexp_replace(repeat('a', 1000000), '', repeat('b', 100), 1, 0))"],
    ["length(regexp_replace(repeat('ab', 2000000), '(a)', '\\1\\1\\1\\1\\1\\1\\1\\1\\1\\1', 'g'))"],
    // A million one-character elements: about 40 MB while the array is built.
    ["cardinality(string_to_array(repeat('a', 1000000), NULL))"],
    ["cardinality(string_to_array(repeat('a,', 1000000), ','))"],
    ["cardinality(regexp_split_to_array(repeat('a', 1000000), ''))"],
    ["cardinality(regexp_split_to_array(repeat('a,', 1000000), ',', 'i'))"],
  ])('stops %s at the cap before building it', async (expression) => {
    const refused = await query(agents[0], { sql: `SELECT ${expression}` }).expect(400);
    expect(refused.body.error).toBe(CAP);
  });

  it('builds values up to the cap as before', async () => {
    const answer = await query(agents[0], {
      sql: `SELECT length(repeat('ab', 4000000)) AS n, lpad('7', 3, '0') AS l, rpad('a', 3) AS r`,
    }).expect(200);
    expect(answer.body.rows).toEqual([[8000000, '007', 'a  ']]);
  });

  it('replaces as before below the cap, also in long texts with few matches', async () => {
    const answer = await query(agents[0], {
      sql: `SELECT replace('a-b-c', '-', '--') AS r,
                   regexp_replace('a1b22', '([0-9]+)', '<\\1>', 'g') AS g,
                   regexp_replace('aaa', 'a', 'bb', 2) AS s,
                   length(replace(repeat('x', 10000000) || 'y', 'y', repeat('z', 1000))) AS few,
                   length(regexp_replace(repeat('x', 10000000) || 'y', 'y', repeat('z', 1000), 'g')) AS rfew`,
    }).expect(200);
    expect(answer.body.rows).toEqual([['a--b--c', 'a<1>b<22>', 'abba', 10001000, 10001000]]);
  });

  it('splits as before below the cap, also long texts into few elements', async () => {
    const answer = await query(agents[0], {
      sql: `SELECT string_to_array('a,b,,c', ',', '') AS s, string_to_array('ab', NULL) AS c,
                   string_to_array('a,b', '') AS w, string_to_array(NULL, ',') AS n,
                   regexp_split_to_array('a1b22c', '[0-9]+') AS r,
                   cardinality(string_to_array(repeat('x', 10000000) || ',y', ',')) AS few,
                   cardinality(regexp_split_to_array(repeat('x', 10000000) || ',y', ',')) AS rfew`,
    }).expect(200);
    expect(answer.body.rows).toEqual([['{a,b,NULL,c}', '{a,b}', '{"a,b"}', null, '{a,b,c}', 2, 2]]);
  });

  it('does not let format build a value of any size through its width', async () => {
    const refused = await query(agents[0], { sql: `SELECT format('%900000000s', 'x')` }).expect(400);
    expect(refused.body.error).toBe(
      'format() needs a constant format text with field widths of at most 10000',
    );
  });

  it('refuses calls that name pg_catalog to get past the guard', async () => {
    const refused = await query(agents[0], { sql: `SELECT pg_catalog.repeat('x', 5)` }).expect(400);
    expect(refused.body.error).toBe('call repeat without a schema');
    await query(agents[0], { sql: `SELECT query_guard.repeat('x', 5)` }).expect(400);
    const replace = await query(agents[0], { sql: `SELECT pg_catalog.regexp_replace('a', 'a', 'b')` });
    expect(replace.body.error).toBe('call regexp_replace without a schema');
  });

  it('keeps QUERY_MAX_CONCURRENT statements that sort and hash as much as they can within work_mem each', async () => {
    const roles = testApp.app.get(QueryRoles);
    // Hashing and sorting four million distinct texts: over 400 MB in memory unless spilled.
    const heavy = `SELECT count(*) FROM (SELECT DISTINCT g::text || repeat('x', 100) AS v
                     FROM generate_series(1, 4000000) g ORDER BY v) s`;
    const running = agents.slice(0, 2).map((agent) => query(agent, { sql: heavy }).then((answer) => answer));
    const pidsOf = async (): Promise<number[]> =>
      (
        await testApp.dataSource.query(
          `SELECT pid FROM pg_stat_activity WHERE state = 'active' AND usename LIKE $1 AND query LIKE '%DISTINCT%'`,
          [`${(await roles.userRole('x')).split('_u_')[0]}_u_%`],
        )
      ).map((row: { pid: number }) => row.pid);
    const deadline = Date.now() + 30_000;
    while ((await pidsOf()).length < 2) {
      if (Date.now() > deadline)
        throw new Error(
          `the two statements did not start: ${JSON.stringify((await Promise.all(running)).map((a) => a.body))}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // A third waits briefly for a place, then is refused.
    await query(agents[2], { sql: 'SELECT 1' }).expect(429);
    let peak = 0;
    let sampled = false;
    for (let pids = await pidsOf(); pids.length > 0; pids = await pidsOf()) {
      const sizes = pids.map(privateBytes).filter((size): size is number => size !== undefined);
      if (sizes.length > 0) sampled = true;
      peak = Math.max(
        peak,
        sizes.reduce((sum, size) => sum + size, 0),
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const answer of await Promise.all(running)) {
      expect(answer.status).toBe(200);
      expect(answer.body.rows).toEqual([[4000000]]);
    }
    if (!sampled) return; // The server runs elsewhere: its backends' memory cannot be read here.
    // Two statements × at most 512 MB each: work_mem 64 MB × hash_mem_multiplier 1 for each of
    // the plan's memory nodes (the series' tuple store, the hash, the sort), what the executor
    // keeps beside them and the backend itself. Measured for the two: about 400 MB on
    // PostgreSQL 15, about 900 MB on the embedded PostgreSQL 18.
    expect(peak).toBeLessThan(2 * 512 * MB);
  }, 120_000);
});
