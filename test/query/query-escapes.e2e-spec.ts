import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { RateLimiterService } from '../../src/common/rate-limit/rate-limiter.service';
import { QueryRunner } from '../../src/query/run/query-runner.service';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

type Agent = TestAgent<Test>;

const NOT_A_READ = /is not allowed: only reading queries \(SELECT\) run here$/;
const NO_SCHEMA = 'Name tables without a schema: your tables are listed beside the editor';
const missing = (name: string) => `relation "${name}" does not exist`;
const refusedFunction = (name: string) => `function ${name} is not allowed in a query`;

/**
 * Attempts to get past the check of user SQL: each names a way out (catalogs, app tables, other
 * users' tables, settings, roles, side effects, a second statement) and asserts it is refused.
 */
describe('POST /api/query: what the check lets through', () => {
  let testApp: TestApp;
  let owner: Agent;
  let stranger: Agent;
  let mine: string;
  let theirs: string;
  let ownerId: string;

  beforeAll(async () => {
    testApp = await createTestApp({ QUERY_TIMEOUT_MS: '2000' });
    const first = await createLoggedInUser(testApp);
    const second = await createLoggedInUser(testApp);
    owner = first.agent;
    ownerId = first.user.id;
    stranger = second.agent;
    const ownId = await uploadDataset(owner, { title: 'Escape own', is_public: 'false' });
    mine = (await owner.get(`/api/assets/${ownId}`).expect(200)).body.readable_name;
    const otherId = await uploadDataset(stranger, { title: 'Escape secret', is_public: 'false' });
    theirs = (await stranger.get(`/api/assets/${otherId}`).expect(200)).body.readable_name;
  });
  afterAll(() => testApp.close());
  // Far more attempts than the per-minute limit allows one user: each test starts afresh.
  beforeEach(() => testApp.app.get(RateLimiterService).reset(`query:${ownerId}`));

  const query = (agent: Agent, sql: string) =>
    agent.post('/api/query').set('Origin', TEST_ORIGIN).send({ sql });
  const refused = async (sql: string) => (await query(owner, sql).expect(400)).body.error as string;

  describe('catalogs and app tables stay out of reach', () => {
    it.each([
      ['SELECT * FROM users', missing('users')],
      ['SELECT * FROM "users"', missing('users')],
      ['SELECT * FROM U&"\\0075sers"', missing('users')],
      ['SELECT * FROM public.users', NO_SCHEMA],
      ['SELECT * FROM "public"."users"', NO_SCHEMA],
      ['SELECT * FROM data.anything', NO_SCHEMA],
      ['SELECT * FROM information_schema.tables', NO_SCHEMA],
      ['SELECT * FROM current_db.public.users', NO_SCHEMA],
      ['SELECT * FROM pg_class', missing('pg_class')],
      ['SELECT * FROM pg_roles', missing('pg_roles')],
      ['SELECT * FROM pg_authid', missing('pg_authid')],
      ['SELECT * FROM pg_shadow', missing('pg_shadow')],
      ['SELECT * FROM pg_settings', missing('pg_settings')],
      ['SELECT * FROM pg_stat_activity', missing('pg_stat_activity')],
      ['SELECT * FROM pg_auth_members', missing('pg_auth_members')],
      ['SELECT reltuples FROM pg_class', missing('pg_class')],
      ['SELECT 1 WHERE EXISTS (SELECT 1 FROM pg_stat_user_tables)', missing('pg_stat_user_tables')],
      ['SELECT * FROM (SELECT * FROM (SELECT * FROM session) a) b', missing('session')],
      ['TABLE pg_roles', missing('pg_roles')],
      ['SELECT (TABLE pg_authid LIMIT 1) IS NULL', missing('pg_authid')],
      ['WITH x AS (SELECT 1) SELECT * FROM x, LATERAL (SELECT * FROM pg_settings) s', missing('pg_settings')],
    ])('%s', async (sql, message) => {
      expect(await refused(sql)).toBe(message);
    });

    it('does not let a WITH name in an inner query hide a catalog table named outside it', async () => {
      expect(
        await refused('SELECT relname FROM pg_class, (WITH pg_class AS (SELECT 1) SELECT * FROM pg_class) s'),
      ).toBe(missing('pg_class'));
      expect(
        await refused(
          'SELECT rolname FROM pg_roles WHERE EXISTS (WITH pg_roles AS (SELECT 1) SELECT 1 FROM pg_roles)',
        ),
      ).toBe(missing('pg_roles'));
      expect(
        await refused(
          '(WITH pg_class AS (SELECT 1 AS relname) SELECT relname FROM pg_class) UNION ALL SELECT relname FROM pg_class',
        ),
      ).toBe(missing('pg_class'));
    });

    it('does not let a WITH name cover the catalog table inside its own body or an earlier one', async () => {
      expect(await refused('WITH pg_roles AS (SELECT rolname FROM pg_roles) SELECT * FROM pg_roles')).toBe(
        missing('pg_roles'),
      );
      expect(
        await refused('WITH a AS (SELECT * FROM pg_authid), pg_authid AS (SELECT 1) SELECT * FROM a'),
      ).toBe(missing('pg_authid'));
    });

    it('still runs WITH names where they are in scope, recursive ones too', async () => {
      const chained = await query(
        owner,
        `WITH a AS (SELECT count(*) AS n FROM ${mine}), b AS (SELECT n + 1 AS n FROM a) SELECT n FROM b`,
      ).expect(200);
      expect(chained.body.rows).toEqual([[4]]);
      const counted = await query(
        owner,
        'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT sum(n) FROM r',
      ).expect(200);
      expect(counted.body.rows).toEqual([[15]]);
      const nested = await query(
        owner,
        `WITH t AS (SELECT name FROM ${mine}) SELECT (SELECT count(*) FROM t) AS n, (SELECT count(*) FROM (SELECT * FROM t) s) AS m`,
      ).expect(200);
      expect(nested.body.rows).toEqual([[3, 3]]);
      const operators = await query(
        owner,
        'SELECT 1 OPERATOR(pg_catalog.+) 2, 3 OPERATOR(pg_catalog.=) ANY (SELECT 3)',
      ).expect(200);
      expect(operators.body.rows).toEqual([[3, true]]);
      const casts = await query(owner, "SELECT '7'::pg_catalog.int4 + 1, '2026-01-02'::date").expect(200);
      expect(casts.body.rows).toEqual([[8, '2026-01-02']]);
    });

    it.each([
      ["SELECT '{public.users}'::_regclass", 'a cast to _regclass is not allowed in a query'],
      ["SELECT '{pg_authid}'::regclass[]", 'a cast to regclass is not allowed in a query'],
      ["SELECT 'public.users'::regclass", 'a cast to regclass is not allowed in a query'],
      ["SELECT CAST('pg_authid' AS pg_catalog.regclass)", 'a cast to regclass is not allowed in a query'],
      ["SELECT 'now'::regproc", 'a cast to regproc is not allowed in a query'],
      ["SELECT '{postgres}'::_regrole", 'a cast to _regrole is not allowed in a query'],
      ["SELECT 'postgres=r/postgres'::aclitem", 'a cast to aclitem is not allowed in a query'],
      ["SELECT '{postgres=r/postgres}'::_aclitem", 'a cast to _aclitem is not allowed in a query'],
      ["SELECT regclass 'pg_authid'", 'a cast to regclass is not allowed in a query'],
      ['SELECT (NULL::public.users).*', 'a cast to public.users is not allowed in a query'],
      ['SELECT (CAST(NULL AS public.api_tokens)).*', 'a cast to public.api_tokens is not allowed in a query'],
      ['SELECT NULL::data.anything', 'a cast to data.anything is not allowed in a query'],
      ["SELECT '{}'::public.users[]", 'a cast to public.users is not allowed in a query'],
      ['SELECT NULL::a.b.c', 'a cast to a.b.c is not allowed in a query'],
    ])('refuses the catalog lookup in %s', async (sql, message) => {
      expect(await refused(sql)).toBe(message);
    });

    it.each([
      ['SELECT current_user', 'This value function is not allowed in a query'],
      ['SELECT session_user', 'This value function is not allowed in a query'],
      ['SELECT current_role', 'This value function is not allowed in a query'],
      ['SELECT current_schema', 'This value function is not allowed in a query'],
      ['SELECT user', 'This value function is not allowed in a query'],
      ['SELECT current_catalog', 'This value function is not allowed in a query'],
    ])('refuses %s, which names roles or the database', async (sql, message) => {
      expect(await refused(sql)).toBe(message);
    });
  });

  describe('functions outside the allow-list are refused wherever they stand', () => {
    it.each([
      ["SELECT set_config('role', 'postgres', true)", 'set_config'],
      ["SELECT pg_catalog.set_config('role', 'postgres', true)", 'pg_catalog.set_config'],
      ["SELECT current_setting('data_directory')", 'current_setting'],
      ["SELECT query_to_xml('SELECT * FROM users', true, true, '')", 'query_to_xml'],
      ["SELECT * FROM ts_rewrite('a'::tsquery, 'SELECT 1')", 'ts_rewrite'],
      ["SELECT pg_sleep_for('5 seconds')", 'pg_sleep_for'],
      ["SELECT dblink('dbname=postgres', 'SELECT 1')", 'dblink'],
      ["SELECT lo_import('/etc/passwd')", 'lo_import'],
      ["SELECT pg_read_binary_file('/etc/passwd')", 'pg_read_binary_file'],
      ["SELECT * FROM pg_ls_dir('.')", 'pg_ls_dir'],
      ['SELECT pg_advisory_lock(1)', 'pg_advisory_lock'],
      ['SELECT pg_try_advisory_xact_lock(1)', 'pg_try_advisory_xact_lock'],
      ['SELECT txid_current()', 'txid_current'],
      ['SELECT txid_current_snapshot()', 'txid_current_snapshot'],
      ['SELECT pg_current_xact_id()', 'pg_current_xact_id'],
      ["SELECT has_table_privilege('public.users', 'SELECT')", 'has_table_privilege'],
      ["SELECT to_regclass('public.users')", 'to_regclass'],
      ["SELECT pg_get_viewdef('pg_roles')", 'pg_get_viewdef'],
      ['SELECT pg_get_functiondef(1)', 'pg_get_functiondef'],
      ['SELECT version()', 'version'],
      ['SELECT current_database()', 'current_database'],
      ['SELECT pg_backend_pid()', 'pg_backend_pid'],
      ['SELECT inet_server_addr()', 'inet_server_addr'],
      ['SELECT pg_cancel_backend(1)', 'pg_cancel_backend'],
      ["SELECT xpath('/a', '<a/>')", 'xpath'],
      ['SELECT row_to_json(r) FROM pg_roles r', 'row_to_json'],
      ['SELECT regclass(1)', 'regclass'],
      ['SELECT abs((SELECT pg_sleep(5))::int)', 'pg_sleep'],
      ["SELECT 1 WHERE EXISTS (SELECT set_config('role', 'postgres', true))", 'set_config'],
      ['SELECT count(*) FILTER (WHERE pg_sleep(1) IS NULL) FROM generate_series(1, 2)', 'pg_sleep'],
      ['SELECT * FROM generate_series(1, 2) ORDER BY pg_sleep(1)', 'pg_sleep'],
      ["SELECT * FROM ROWS FROM (generate_series(1, 2), pg_ls_dir('.'))", 'pg_ls_dir'],
      ['SELECT sum(x) OVER (ORDER BY pg_sleep(1)) FROM generate_series(1, 2) x', 'pg_sleep'],
      ['SELECT public.anything()', 'public.anything'],
      ['SELECT a.b.c()', 'a.b.c'],
    ])('%s', async (sql, name) => {
      expect(await refused(sql)).toBe(refusedFunction(name));
    });
  });

  describe('only one reading statement runs', () => {
    it.each([
      ['COPY (SELECT 1) TO STDOUT', NOT_A_READ],
      ["COPY users TO '/tmp/users'", NOT_A_READ],
      ['LOCK TABLE users', NOT_A_READ],
      ['CALL anything()', NOT_A_READ],
      ['DO $$BEGIN PERFORM 1; END$$', NOT_A_READ],
      ['PREPARE p AS SELECT 1', NOT_A_READ],
      ['EXECUTE p', NOT_A_READ],
      ['LISTEN channel', NOT_A_READ],
      ["NOTIFY channel, 'x'", NOT_A_READ],
      ['SHOW work_mem', NOT_A_READ],
      ['DISCARD ALL', NOT_A_READ],
      ['SET TRANSACTION READ WRITE', NOT_A_READ],
      ['RESET ROLE', NOT_A_READ],
      ['SET SESSION AUTHORIZATION DEFAULT', NOT_A_READ],
      ['VACUUM', NOT_A_READ],
      ['GRANT SELECT ON users TO PUBLIC', NOT_A_READ],
      ['CREATE FUNCTION f() RETURNS int AS $$SELECT 1$$ LANGUAGE sql', NOT_A_READ],
      ['CREATE OPERATOR === (FUNCTION = int4eq, LEFTARG = int, RIGHTARG = int)', NOT_A_READ],
      ['SELECT 1; SELECT 2', /^Run one statement at a time$/],
      ['SELECT 1 /* harmless */; DELETE FROM users', /^Run one statement at a time$/],
      ['SELECT $$;$$; DELETE FROM users', /^Run one statement at a time$/],
      [
        "SELECT $x$ $$ ; $$ $x$; SELECT set_config('role', 'postgres', false)",
        /^Run one statement at a time$/,
      ],
      ['SELECT 1 -- \n; DROP TABLE users', /^Run one statement at a time$/],
      ['EXPLAIN ANALYZE SELECT 1', /^EXPLAIN ANALYZE runs the statement/],
      ['EXPLAIN ANALYSE SELECT 1', /^EXPLAIN ANALYZE runs the statement/],
      ['EXPLAIN (ANALYZE true, FORMAT json) SELECT 1', /^EXPLAIN ANALYZE runs the statement/],
      ['EXPLAIN (ANALYSE) SELECT 1', /^EXPLAIN ANALYZE runs the statement/],
      ['EXPLAIN DELETE FROM users', NOT_A_READ],
      ['EXPLAIN (SETTINGS) SELECT 1', /^EXPLAIN \(SETTINGS\) shows the server's own settings/],
      ['EXPLAIN (SETTINGS true, FORMAT json) SELECT 1', /^EXPLAIN \(SETTINGS\) shows the server's own/],
      ['EXPLAIN (VERBOSE) SELECT 1', /^EXPLAIN \(VERBOSE\) shows the server's own settings or names/],
      ['EXPLAIN VERBOSE SELECT 1', /^EXPLAIN \(VERBOSE\) shows the server's own settings or names/],
      ['EXPLAIN (BUFFERS) SELECT 1', /^EXPLAIN \(BUFFERS\) shows the server's own settings or names/],
      ['EXPLAIN EXPLAIN SELECT 1', /syntax error/],
      ['SELECT 1 AS x INTO kept', /^SELECT INTO creates a table/],
      ['SELECT * FROM generate_series(1, 3) FOR UPDATE', /^FOR UPDATE\/SHARE locks rows/],
      ['SELECT * FROM generate_series(1, 3) FOR KEY SHARE', /^FOR UPDATE\/SHARE locks rows/],
      ['WITH gone AS (DELETE FROM users RETURNING *) SELECT * FROM gone', /^Only SELECT may stand in a WITH/],
      ['WITH x AS (UPDATE users SET name = 1 RETURNING 1) SELECT 1', /^Only SELECT may stand in a WITH/],
      ['WITH x AS (SET ROLE postgres) SELECT 1', /syntax error/],
      ['SELECT * FROM (DELETE FROM users RETURNING *) d', /syntax error/],
      ["SELECT * FROM XMLTABLE('/a' PASSING '<a/>' COLUMNS x int)", /is not allowed in a query$/],
      ['SELECT xmlelement(name a)', /is not allowed in a query$/],
      ['SELECT 1 OPERATOR(public.===) 1', /^operator public\.=== is not allowed in a query$/],
      ['SELECT 1 OPERATOR(pg_temp.=) 1', /^operator pg_temp\.= is not allowed in a query$/],
      ['SELECT 1 OPERATOR(public.=) ANY (SELECT 1)', /^operator public\.= is not allowed in a query$/],
    ])('%s', async (sql, message) => {
      expect(await refused(sql)).toMatch(message);
    });

    it('refuses a row lock on a table the caller holds, before it reaches the database', async () => {
      expect(await refused(`SELECT * FROM ${mine} FOR UPDATE`)).toMatch(/^FOR UPDATE\/SHARE locks rows/);
      expect(await refused(`SELECT * FROM ${mine} FOR NO KEY UPDATE SKIP LOCKED`)).toMatch(
        /^FOR UPDATE\/SHARE locks rows/,
      );
    });

    it('refuses TABLESAMPLE, whose method could be any function', async () => {
      expect(await refused(`SELECT * FROM ${mine} TABLESAMPLE BERNOULLI (50)`)).toMatch(
        /^RangeTableSample is not allowed in a query$/,
      );
      expect(await refused(`SELECT * FROM ${mine} TABLESAMPLE public.anything (50)`)).toMatch(
        /^RangeTableSample is not allowed in a query$/,
      );
    });

    it('keeps the EXPLAIN of a held table to that table', async () => {
      const plan = await query(owner, `EXPLAIN SELECT * FROM ${mine}`).expect(200);
      expect(plan.body.rows.length).toBeGreaterThan(0);
      expect(await refused(`EXPLAIN SELECT * FROM ${theirs}`)).toBe(missing(theirs));
      expect(await refused('EXPLAIN SELECT * FROM pg_authid')).toBe(missing('pg_authid'));
    });
  });

  describe('a table the caller does not hold', () => {
    it('fails like a missing one, quoted or not, and never reaches the database', async () => {
      const runner = testApp.app.get(QueryRunner);
      const open = jest.spyOn(runner, 'open');
      try {
        const foreign = await query(owner, `SELECT * FROM "${theirs}"`).expect(400);
        const absent = await query(owner, 'SELECT * FROM "no_such_table_at_all"').expect(400);
        expect(foreign.body).toEqual({ ...absent.body, error: missing(theirs), message: missing(theirs) });
        expect(foreign.body.position).toBe(absent.body.position);
        const joined = await query(owner, `SELECT * FROM ${mine} JOIN ${theirs} USING (name)`).expect(400);
        expect(joined.body.error).toBe(missing(theirs));
        expect(open).not.toHaveBeenCalled();
      } finally {
        open.mockRestore();
      }
    });
  });

  describe('the server stays up for outsized queries', () => {
    it('refuses a text over the length limit', async () => {
      const huge = `SELECT ${'1 + '.repeat(262_144)}1`;
      const response = await query(owner, huge);
      expect([400, 413]).toContain(response.status);
      expect(response.body.error).toMatch(/at most 100000 characters|too large/i);
    });

    it('answers 10,000 nested parentheses with an error, not a crash', async () => {
      const response = await query(owner, `SELECT ${'('.repeat(10_000)}1${')'.repeat(10_000)}`).expect(400);
      expect(typeof response.body.error).toBe('string');
      await query(owner, 'SELECT 1').expect(200);
    });

    it('answers deeply nested sub-selects with an error, not a crash', async () => {
      const depth = 5_000;
      const response = await query(owner, `${'SELECT ('.repeat(depth)}SELECT 1${')'.repeat(depth)}`).expect(
        400,
      );
      expect(typeof response.body.error).toBe('string');
      await query(owner, 'SELECT 1').expect(200);
    });

    it('stops a catastrophic regular expression at the statement limit', async () => {
      const started = Date.now();
      const response = await query(
        owner,
        "SELECT count(*) FROM generate_series(1, 100000000) g WHERE repeat('a', 40) ~ '^(a|a?)+(a|a?)+$'",
      ).expect(400);
      expect(response.body.error).toBe('The query ran longer than 2 s and was stopped');
      expect(Date.now() - started).toBeLessThan(15_000);
    });

    it('stops generate_series of 10^12 rows at the statement limit', async () => {
      const response = await query(owner, 'SELECT max(g) FROM generate_series(1, 1000000000000) g').expect(
        400,
      );
      expect(response.body.error).toBe('The query ran longer than 2 s and was stopped');
    });

    it('stops a huge sort at the statement limit', async () => {
      const response = await query(
        owner,
        'SELECT g FROM generate_series(1, 100000000) g ORDER BY md5(g::text) LIMIT 1',
      ).expect(400);
      expect(response.body.error).toBe('The query ran longer than 2 s and was stopped');
    });
  });
});
