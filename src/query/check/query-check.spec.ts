import { checkQuery } from './query-check';
import { QueryRefusal } from './query-refusal';

async function refusal(sql: string): Promise<QueryRefusal> {
  try {
    await checkQuery(sql);
  } catch (error) {
    if (error instanceof QueryRefusal) return error;
    throw error;
  }
  throw new Error(`Accepted: ${sql}`);
}

describe('checkQuery: only reads, with allowed parts, reach the database', () => {
  it.each([
    'SELECT region, count(*), sum(amount) FROM sales GROUP BY region ORDER BY 2 DESC',
    'SELECT * FROM sales s JOIN stores USING (store_id) WHERE s.amount > 10 LIMIT 5',
    'WITH big AS (SELECT * FROM sales WHERE amount > 100) SELECT count(*) FROM big',
    'VALUES (1, 2), (3, 4)',
    'TABLE sales',
    'SELECT row_number() OVER (PARTITION BY region ORDER BY day), lag(amount) OVER w FROM sales WINDOW w AS (ORDER BY day)',
    "SELECT date_trunc('month', day)::date, CURRENT_DATE, coalesce(note, ''), greatest(1, 2) FROM sales",
    'SELECT * FROM generate_series(1, 3) g(x)',
    'SELECT (SELECT max(amount) FROM sales) AS top, EXISTS (SELECT 1 FROM stores)',
    'EXPLAIN SELECT * FROM sales',
    'EXPLAIN (FORMAT JSON, COSTS OFF) SELECT * FROM sales',
    'EXPLAIN (SUMMARY, COSTS false) SELECT * FROM sales',
  ])('accepts %s', async (sql) => {
    await expect(checkQuery(sql)).resolves.toBeDefined();
  });

  it('lists the tables named, without CTE names, with where each stands', async () => {
    const checked = await checkQuery(
      'WITH recent AS (SELECT * FROM sales) SELECT * FROM recent r, "Mixed" m, stores',
    );
    expect(checked.tables).toEqual([
      { name: 'sales', byteOffset: 30, hasAlias: false, inTableStatement: false },
      { name: 'Mixed', byteOffset: 61, hasAlias: true, inTableStatement: false },
      { name: 'stores', byteOffset: 72, hasAlias: false, inTableStatement: false },
    ]);
    expect((await checkQuery('TABLE sales')).tables[0].inTableStatement).toBe(true);
    expect((await checkQuery('EXPLAIN SELECT 1')).kind).toBe('explain');
  });

  it.each([
    [
      'a WITH name used outside the query that defines it',
      'SELECT * FROM pg_class, (WITH pg_class AS (SELECT 1) SELECT 1) s',
      14,
    ],
    [
      'a WITH name used in its own body',
      'WITH pg_roles AS (SELECT * FROM pg_roles) SELECT * FROM pg_roles',
      32,
    ],
    [
      'a WITH name used in an earlier entry',
      'WITH a AS (SELECT * FROM b), b AS (SELECT 1) SELECT * FROM a',
      25,
    ],
    [
      'a WITH name used in the other branch of a UNION',
      '(WITH b AS (SELECT 1) SELECT * FROM b) UNION SELECT * FROM b',
      59,
    ],
  ])('lists as a table %s', async (_case, sql, byteOffset) => {
    const { tables } = await checkQuery(sql);
    expect(tables.map((table) => table.byteOffset)).toEqual([byteOffset]);
  });

  it.each([
    'WITH a AS (SELECT 1), b AS (SELECT * FROM a) SELECT * FROM b, (SELECT * FROM a) s WHERE EXISTS (SELECT 1 FROM b)',
    'WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r) SELECT * FROM r',
    'WITH RECURSIVE a AS (SELECT * FROM b), b AS (SELECT 1) SELECT * FROM a',
    'WITH b AS (SELECT 1) SELECT * FROM b UNION SELECT * FROM b',
  ])('lists no table for WITH names in scope: %s', async (sql) => {
    expect((await checkQuery(sql)).tables).toEqual([]);
  });

  it.each([
    ['INSERT INTO sales VALUES (1)', 'Insert is not allowed: only reading queries (SELECT) run here'],
    ['UPDATE sales SET amount = 0', 'Update is not allowed: only reading queries (SELECT) run here'],
    ['DELETE FROM sales', 'Delete is not allowed: only reading queries (SELECT) run here'],
    ['DROP TABLE sales', 'Drop is not allowed: only reading queries (SELECT) run here'],
    [
      'CREATE TEMP TABLE t AS SELECT 1',
      'CreateTableAs is not allowed: only reading queries (SELECT) run here',
    ],
    ['SET ROLE postgres', 'VariableSet is not allowed: only reading queries (SELECT) run here'],
    ['RESET ROLE', 'VariableSet is not allowed: only reading queries (SELECT) run here'],
    [
      'SET SESSION AUTHORIZATION postgres',
      'VariableSet is not allowed: only reading queries (SELECT) run here',
    ],
    ['SET TRANSACTION READ WRITE', 'VariableSet is not allowed: only reading queries (SELECT) run here'],
    ['COPY sales TO STDOUT', 'Copy is not allowed: only reading queries (SELECT) run here'],
    ['DO $$ BEGIN END $$', 'Do is not allowed: only reading queries (SELECT) run here'],
    ['SELECT 1; SELECT 2', 'Run one statement at a time'],
    ['SELECT 1; DROP TABLE sales', 'Run one statement at a time'],
    ['', 'The query is empty'],
    [
      'EXPLAIN ANALYZE SELECT * FROM sales',
      'EXPLAIN ANALYZE runs the statement: use EXPLAIN without ANALYZE',
    ],
    [
      'EXPLAIN (ANALYZE) DELETE FROM sales',
      'EXPLAIN ANALYZE runs the statement: use EXPLAIN without ANALYZE',
    ],
    ['EXPLAIN DELETE FROM sales', 'Delete is not allowed: only reading queries (SELECT) run here'],
    [
      'EXPLAIN (SETTINGS) SELECT * FROM sales',
      "EXPLAIN (SETTINGS) shows the server's own settings or names: use FORMAT, COSTS or SUMMARY",
    ],
    [
      'EXPLAIN (COSTS OFF, VERBOSE on) SELECT * FROM sales',
      "EXPLAIN (VERBOSE) shows the server's own settings or names: use FORMAT, COSTS or SUMMARY",
    ],
    [
      'WITH gone AS (DELETE FROM sales RETURNING *) SELECT * FROM gone',
      'Only SELECT may stand in a WITH clause: only reading queries are allowed',
    ],
    ['SELECT * INTO copy FROM sales', 'SELECT INTO creates a table: only reading queries are allowed'],
    ['SELECT * FROM sales FOR UPDATE', 'FOR UPDATE/SHARE locks rows: only reading queries are allowed'],
    ["SELECT set_config('role', 'postgres', false)", 'function set_config is not allowed in a query'],
    ["SELECT current_setting('data_directory')", 'function current_setting is not allowed in a query'],
    [
      "SELECT query_to_xml('select * from users', true, true, '')",
      'function query_to_xml is not allowed in a query',
    ],
    ['SELECT pg_sleep(10)', 'function pg_sleep is not allowed in a query'],
    ["SELECT pg_sleep_for('1 minute')", 'function pg_sleep_for is not allowed in a query'],
    ["SELECT dblink('host=x', 'select 1')", 'function dblink is not allowed in a query'],
    ["SELECT lo_import('/etc/passwd')", 'function lo_import is not allowed in a query'],
    ["SELECT pg_read_file('/etc/passwd')", 'function pg_read_file is not allowed in a query'],
    ["SELECT pg_ls_dir('.')", 'function pg_ls_dir is not allowed in a query'],
    ['SELECT pg_advisory_lock(1)', 'function pg_advisory_lock is not allowed in a query'],
    ['SELECT txid_current()', 'function txid_current is not allowed in a query'],
    ["SELECT ts_rewrite('a'::tsquery, 'select 1')", 'function ts_rewrite is not allowed in a query'],
    ['SELECT pg_catalog.pg_sleep(1)', 'function pg_catalog.pg_sleep is not allowed in a query'],
    ['SELECT public.count(1)', 'function public.count is not allowed in a query'],
    ["SELECT 'users'::regclass", 'a cast to regclass is not allowed in a query'],
    ["SELECT CAST('postgres' AS regrole)", 'a cast to regrole is not allowed in a query'],
    ['SELECT CURRENT_USER', 'This value function is not allowed in a query'],
    [
      'SELECT * FROM pg_catalog.pg_authid',
      'Name tables without a schema: your tables are listed beside the editor',
    ],
    ['SELECT * FROM public.users', 'Name tables without a schema: your tables are listed beside the editor'],
    ['SELECT * FROM data.ds_abc', 'Name tables without a schema: your tables are listed beside the editor'],
    ["SELECT xmlparse(document '<a/>')", 'XmlExpr is not allowed in a query'],
    ['SELEC 1', 'syntax error at or near "SELEC"'],
  ])('refuses %s', async (sql, message) => {
    expect((await refusal(sql)).message).toBe(message);
  });

  it('points at the refused part, in characters', async () => {
    expect((await refusal('SELECT 1, pg_sleep(1)')).position).toBe(11);
    expect((await refusal("SELECT 'ü', pg_sleep(1)")).position).toBe(13);
    expect((await refusal('SELECT 1 FROMM x')).position).toBe(16);
  });
});
