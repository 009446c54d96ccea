import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

type Agent = TestAgent<Test>;

const CAP_MESSAGE = 'a value built by a query may be at most 16 MB';

/** 9 MB of text: under the cap alone, over it twice. */
const NINE_MB = "repeat('x', 9000000)";

/**
 * Values composed from others (`s || s`, concat, array_cat, jsonb_set, json builders) are each at
 * most the sum of their parts, but a value doubled at every level of a WITH or a recursion reached
 * PostgreSQL's 1 GB in a few dozen steps, holding a gigabyte or two of the shared server for
 * seconds. Each composition now refuses a result past 16 MB (migration QueryCompositionGuards,
 * value-builders.ts), row and array constructors included, and `ARRAY(SELECT …)` counts its
 * elements as array_agg does.
 */
describe('POST /api/query: values composed from others', () => {
  let testApp: TestApp;
  let agent: Agent;

  beforeAll(async () => {
    testApp = await createTestApp({ QUERY_TIMEOUT_MS: '60000' });
    agent = (await createLoggedInUser(testApp)).agent;
    await query('SELECT 1').expect(200);
  });
  afterAll(() => testApp.close());

  const query = (sql: string) => agent.post('/api/query').set('Origin', TEST_ORIGIN).send({ sql });

  it.each([
    `WITH RECURSIVE r(s) AS (SELECT 'x' UNION ALL SELECT s || s FROM r WHERE length(s) < 1e9) SELECT max(length(s)) FROM r`,
    `WITH a AS (SELECT ${NINE_MB} AS s) SELECT length(s || s) FROM a`,
    `WITH a AS (SELECT ${NINE_MB} AS s) SELECT length(a.s || 1) FROM a, a AS b WHERE length(a.s || b.s) > 0`,
    `WITH a AS (SELECT ${NINE_MB}::bytea AS b) SELECT length(b || b) FROM a`,
    `WITH a AS (SELECT to_jsonb(${NINE_MB}) AS j) SELECT length((j || j)::text) FROM a`,
    `WITH a AS (SELECT jsonb_build_array(${NINE_MB}) AS j) SELECT length(jsonb_set(j, '{1}', j)::text) FROM a`,
    `WITH a AS (SELECT jsonb_build_array(${NINE_MB}) AS j) SELECT length(jsonb_insert(j, '{0}', j)::text) FROM a`,
    `WITH a AS (SELECT ARRAY[${NINE_MB}] AS r) SELECT cardinality(r || r) FROM a`,
    `WITH a AS (SELECT ARRAY[${NINE_MB}] AS r) SELECT cardinality(array_cat(r, r)) FROM a`,
    `WITH a AS (SELECT ARRAY[${NINE_MB}] AS r) SELECT cardinality(array_append(r, r[1])) FROM a`,
    `WITH a AS (SELECT ARRAY[${NINE_MB}] AS r) SELECT cardinality(array_prepend(r[1], r)) FROM a`,
    `WITH a AS (SELECT ARRAY[${NINE_MB}] AS r) SELECT cardinality(r[1] || r) FROM a`,
    `WITH a AS (SELECT ${NINE_MB} AS s) SELECT length(concat(s, s)) FROM a`,
    `WITH a AS (SELECT ${NINE_MB} AS s) SELECT length(concat_ws(',', s, s)) FROM a`,
    `WITH a AS (SELECT ${NINE_MB} AS s) SELECT length(format('%s%s', s, s)) FROM a`,
    `WITH a AS (SELECT ${NINE_MB} AS s) SELECT length(json_build_array(s, s)::text) FROM a`,
    `WITH a AS (SELECT ${NINE_MB} AS s) SELECT length(jsonb_build_object('a', s, 'b', s)::text) FROM a`,
    `WITH a AS (SELECT ${NINE_MB} AS s) SELECT length(to_json(ROW(s, s))::text) FROM a`,
    `WITH a AS (SELECT ${NINE_MB} AS s) SELECT length(ROW(s, s)::text) FROM a`,
    `WITH a AS (SELECT ${NINE_MB} AS s), b AS (SELECT (s, s) AS r FROM a) SELECT length(r::text) FROM b`,
    `WITH a AS (SELECT ${NINE_MB} AS s) SELECT cardinality(ARRAY[s, s]) FROM a`,
    `WITH a AS (SELECT ARRAY[${NINE_MB}] AS r) SELECT cardinality(ARRAY[r, r]) FROM a`,
    // One element's text per NULL: a million of them, a hundred bytes each.
    `SELECT length(array_to_string(string_to_array(repeat(',', 1000000), ',', ''), '', repeat('x', 100)))`,
    `SELECT length(array_to_string(string_to_array(repeat(',', 1000000), ','), repeat('x', 100)))`,
  ])(
    'refuses %s with a 400 naming the cap',
    async (sql) => {
      const answer = await query(sql);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe(CAP_MESSAGE);
    },
    60_000,
  );

  it('counts the elements of ARRAY(SELECT …) towards the cap, as array_agg’s', async () => {
    const answer = await query(
      "SELECT cardinality(ARRAY(SELECT repeat('x', 1000000) FROM generate_series(1, 1500)))",
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/builds a value larger than 16 MB/);
  }, 60_000);

  it.each([
    ["SELECT 'a' || 1, 1 || 'a', 'a' || NULL, 'a' || 'b'", [['a1', '1a', null, 'ab']]],
    [
      'SELECT ARRAY[1] || 2, 0 || ARRAY[1], ARRAY[1, 2] || ARRAY[3], ARRAY[1] || 2.5',
      [['{1,2}', '{0,1}', '{1,2,3}', '{1,2.5}']],
    ],
    [
      `SELECT '{"a": 1}'::jsonb || '{"b": 2}', '\\x01'::bytea || '\\x02'::bytea, B'10' || B'01'`,
      [[{ a: 1, b: 2 }, '\\x0102', '1001']],
    ],
    [
      "SELECT array_cat(ARRAY[1], ARRAY[2]), array_append(ARRAY['a'], 'b'), array_prepend(0, ARRAY[1])",
      [['{1,2}', '{a,b}', '{0,1}']],
    ],
    [
      `SELECT jsonb_set('{"a": 1}', '{a}', '2'), jsonb_set('{"a": 1}', '{b}', '2', false), jsonb_insert('[1]', '{0}', '0')`,
      [[{ a: 2 }, { a: 1 }, [0, 1]]],
    ],
    [
      "SELECT array_to_string(ARRAY[1, NULL, 3], ','), array_to_string(ARRAY[1, NULL, 3], ',', '*')",
      [['1,3', '1,*,3']],
    ],
    [
      "SELECT concat('a', NULL, 1), concat_ws('-', 'a', 'b'), format('%s=%s', 'k', 2)",
      [['a1', 'a-b', 'k=2']],
    ],
    [
      "SELECT json_build_object('a', 1), jsonb_build_array(1, 'x'), to_jsonb(t) FROM (VALUES (1, 'a')) AS t(n, s)",
      [[{ a: 1 }, [1, 'x'], { n: 1, s: 'a' }]],
    ],
    [
      'SELECT ARRAY(SELECT g FROM generate_series(3, 1, -1) g), ARRAY(SELECT 1 WHERE false)',
      [['{3,2,1}', '{}']],
    ],
    [
      "SELECT ARRAY(SELECT ARRAY[g, g] FROM generate_series(1, 2) g), ARRAY(SELECT s FROM (VALUES ('b'), ('a')) AS t(s) ORDER BY s)",
      [['{{1,1},{2,2}}', '{a,b}']],
    ],
    [
      "SELECT ROW(1, 'a')::text, (1, 'b')::text, ARRAY[[1, 2], [3, 4]], to_json(ROW(1, 'x')), ARRAY[]::int[]",
      [['(1,a)', '(1,b)', '{{1,2},{3,4}}', { f1: 1, f2: 'x' }, '{}']],
    ],
    [
      'SELECT a, b, count(*) FROM (VALUES (1, 2), (1, 2), (3, 4)) AS t(a, b) WHERE (a, b) IN ((1, 2), (3, 4)) AND ROW(a, b) <> (5, 6) AND (a, b) IN (SELECT 1, 2 UNION SELECT 3, 4) GROUP BY (a, b) ORDER BY a',
      [
        [1, 2, 2],
        [3, 4, 1],
      ],
    ],
    [
      'SELECT a, b, count(*) FROM (VALUES (1, 2), (3, 4)) AS t(a, b) GROUP BY ROLLUP ((a, b)) ORDER BY a NULLS LAST',
      [
        [1, 2, 1],
        [3, 4, 1],
        [null, null, 2],
      ],
    ],
    ['SELECT count(*) FROM generate_series(1, 5) g WHERE g = ANY (ARRAY[2, 4])', [[2]]],
    // Up to the cap itself: 8 MB and 8 MB make 16,000,000 bytes, under 16 MiB.
    ["SELECT length(repeat('x', 8000000) || repeat('y', 8000000))", [[16000000]]],
    [
      "SELECT max(length(s)) FROM (WITH RECURSIVE r(s) AS (SELECT 'x' UNION ALL SELECT s || s FROM r WHERE length(s) < 1000000) SELECT s FROM r) AS doubled",
      [[1048576]],
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

  it.each([
    ["SELECT 'a' OPERATOR(pg_catalog.||) 'b'", 'operator pg_catalog.|| is not allowed in a query'],
    ['SELECT pg_catalog.array_cat(ARRAY[1], ARRAY[2])', 'call array_cat without a schema'],
    ["SELECT query_guard.capped('x')", 'function query_guard.capped is not allowed in a query'],
  ])('refuses %s, which would get past the guard', async (sql, message) => {
    const answer = await query(sql);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe(message);
  });

  it('keeps the guards of `||` inlined into the plan (no function call per row)', async () => {
    const answer = await query("EXPLAIN (FORMAT JSON) SELECT g::text || 'x' FROM generate_series(1, 3) g");
    expect(answer.status).toBe(200);
    const plan = JSON.stringify(answer.body.rows);
    expect(plan).not.toMatch(/concatenated_/);
  });
});
