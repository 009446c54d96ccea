import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { NEEDED_MORE_MEMORY, NESTED_TOO_DEEPLY } from '../../src/query/run/user-sql-errors';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

type Agent = TestAgent<Test>;

const CAP_MESSAGE = /builds a value larger than 16 MB/;

/**
 * Aggregates build one value out of many rows, each row small: without a bound of ours only
 * PostgreSQL's 1 GB per value stopped them, after a backend had taken a gigabyte or two. Every
 * argument they take in now counts towards 16 MB per statement (aggregate-guard.ts), so an
 * oversized one stops after about 16 MB of input, while the usual uses pass.
 */
describe('POST /api/query: values built by aggregates', () => {
  let testApp: TestApp;
  let agent: Agent;

  beforeAll(async () => {
    testApp = await createTestApp({ QUERY_TIMEOUT_MS: '60000' });
    agent = (await createLoggedInUser(testApp)).agent;
    await query('SELECT 1').expect(200);
  });
  afterAll(() => testApp.close());

  const query = (sql: string) => agent.post('/api/query').set('Origin', TEST_ORIGIN).send({ sql });

  const timed = async (sql: string) => {
    const started = performance.now();
    const answer = await query(sql);
    return { answer, ms: performance.now() - started };
  };

  it.each([
    "SELECT length(string_agg(repeat('x', 1000000), '')) FROM generate_series(1, 1500)",
    "SELECT length(string_agg('', repeat('x', 1000000))) FROM generate_series(1, 1500)",
    "SELECT length(array_agg(repeat('x', 1000000))::text) FROM generate_series(1, 1500)",
    "SELECT length(json_agg(repeat('x', 1000000))::text) FROM generate_series(1, 1500)",
    "SELECT length(jsonb_agg(repeat('x', 1000000))::text) FROM generate_series(1, 1500)",
    "SELECT length(json_object_agg(g, repeat('x', 1000000))::text) FROM generate_series(1, 1500) g",
    "SELECT length(jsonb_object_agg(g::text, repeat('x', 1000000))::text) FROM generate_series(1, 1500) g",
    // Ordered and distinct aggregates sort their rows first; each row still counts on its way in.
    "SELECT length(string_agg(repeat('x', 1000000) || g, '' ORDER BY g DESC)) FROM generate_series(1, 1500) g",
    "SELECT length(string_agg(DISTINCT repeat('x', 1000000) || g, '')) FROM generate_series(1, 1500) g",
    // A thousand groups hashed at once, none past 16 MB on its own: the total is what counts.
    "SELECT g % 1000, length(string_agg(repeat('x', 100000), '')) FROM generate_series(1, 200000) g GROUP BY 1",
    // As a window function, and inside a subquery of another aggregate.
    "SELECT max(length(s)) FROM (SELECT string_agg(repeat('x', 1000000), '') OVER (ORDER BY g) AS s FROM generate_series(1, 1500) g) w",
    "SELECT length(string_agg((SELECT string_agg(repeat('x', 100000), '') FROM generate_series(1, 100)), '')) FROM generate_series(1, 100)",
    // Small elements, very many: what the array keeps beside each counts too.
    'SELECT cardinality(array_agg(a)) FROM generate_series(1, 10000) a, generate_series(1, 10000) b',
  ])(
    'refuses %s with a 400 naming the cap',
    async (sql) => {
      const answer = await query(sql);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatch(CAP_MESSAGE);
    },
    60_000,
  );

  it('stops an oversized aggregate after about the cap, not after all its rows', async () => {
    // Fifteen values of 1 MB pass; fifteen hundred stop at the seventeenth. Without the guard the
    // refused one built 1.5 GB (or failed at 1 GB), a hundred times the work of the one allowed.
    const allowed = await timed(
      "SELECT length(string_agg(repeat('x', 1000000), '')) FROM generate_series(1, 15)",
    );
    expect(allowed.answer.status).toBe(200);
    expect(allowed.answer.body.rows).toEqual([[15000000]]);
    const refused = await timed(
      "SELECT length(string_agg(repeat('x', 1000000), '')) FROM generate_series(1, 1500)",
    );
    expect(refused.answer.status).toBe(400);
    expect(refused.ms).toBeLessThan(allowed.ms * 20);
  }, 60_000);

  it.each([
    [
      "SELECT category, string_agg(name, ', ' ORDER BY name) FROM (VALUES ('fruit', 'pear'), ('fruit', 'apple'), ('veg', 'leek')) AS t(category, name) GROUP BY category ORDER BY category",
      [
        ['fruit', 'apple, pear'],
        ['veg', 'leek'],
      ],
    ],
    ["SELECT string_agg(DISTINCT x, ',') FROM (VALUES ('a'), ('b'), ('a')) AS t(x)", [['a,b']]],
    ['SELECT array_agg(g ORDER BY g DESC) FILTER (WHERE g > 1) FROM generate_series(1, 3) g', [['{3,2}']]],
    ["SELECT json_object_agg('k' || g, g) FROM generate_series(1, 2) g", [[{ k1: 1, k2: 2 }]]],
    ["SELECT array_agg(NULL), json_agg('x')", [['{NULL}', ['x']]]],
    [
      "SELECT json_agg(t.*), jsonb_agg(t) FROM (VALUES (1, 'a')) AS t(n, s)",
      [[[{ n: 1, s: 'a' }], [{ n: 1, s: 'a' }]]],
    ],
    [
      "SELECT k, array_agg(ARRAY[k, k]) FROM (VALUES (1), (1), (2)) AS t(k) GROUP BY k HAVING length(string_agg(k::text, '')) > 1 ORDER BY array_agg(k)",
      [[1, '{{1,1},{1,1}}']],
    ],
    ["SELECT string_agg('\\x00ff'::bytea, '\\x2c'::bytea) FROM generate_series(1, 2)", [['\\x00ff2c00ff']]],
    [
      "SELECT cardinality(array_agg(g)), length(json_agg(json_build_object('id', g, 'name', 'item ' || g))::text), length(jsonb_agg(g)::text) FROM generate_series(1, 100000) g",
      [[100000, 3877790, 688895]],
    ],
    [
      "SELECT g % 3 AS k, count(*), length(string_agg(g::text, '')) = sum(length(g::text)) FROM generate_series(1, 300000) g GROUP BY 1 ORDER BY 1",
      [
        [0, 100000, true],
        [1, 100000, true],
        [2, 100000, true],
      ],
    ],
  ])(
    'still answers %s',
    async (sql, rows) => {
      const answer = await query(sql);
      expect(answer.status).toBe(200);
      expect(answer.body.rows).toEqual(rows);
    },
    60_000,
  );

  it('keeps statements with the guard out of parallel plans', async () => {
    // A setting cannot change while a parallel plan runs, in its leader either ("cannot be set
    // during a parallel operation"): restricted would still put the aggregate above a Gather.
    const guards: Array<{ proparallel: string }> = await testApp.dataSource.query(
      `SELECT proparallel FROM pg_proc WHERE pronamespace = 'query_guard'::regnamespace AND proname = 'aggregated'`,
    );
    expect(guards.map((guard) => guard.proparallel)).toEqual(['u', 'u']);
  });

  it('points an error after an aggregate at the place in the text the user wrote', async () => {
    const sql = "SELECT string_agg(g::text, ','), no_such_column FROM generate_series(1, 3) g";
    const answer = await query(sql);
    expect(answer.status).toBe(400);
    expect(answer.body.position).toBe(sql.indexOf('no_such_column') + 1);
  });

  it.each([
    `SELECT (repeat('[', 200000) || repeat(']', 200000))::jsonb`,
    `SELECT jsonb_array_length((repeat('[', 200000) || repeat(']', 200000))::jsonb)`,
  ])('answers %s, nested past the stack, in plain words', async (sql) => {
    const answer = await query(sql);
    expect(answer.status).toBe(400);
    expect([NESTED_TOO_DEEPLY, NEEDED_MORE_MEMORY]).toContain(answer.body.error);
  });
});
