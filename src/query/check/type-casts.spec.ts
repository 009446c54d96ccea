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

/**
 * Ways a type name could tell one tenant the names of another's tables: the reg* types look names
 * up, catalogue composites carry reg* fields, a table's row type exists exactly when the table does.
 */
describe('checkQuery: casts only to base types', () => {
  it.each([
    ["SELECT 'data.ds_x'::regclass", 'regclass'],
    ["SELECT 'data.ds_x'::pg_catalog.regclass", 'regclass'],
    ['SELECT \'data.ds_x\'::"regclass"', 'regclass'],
    ["SELECT CAST('data.ds_x' AS regclass)", 'regclass'],
    ["SELECT regclass 'data.ds_x'", 'regclass'],
    ['SELECT 1259::oid::regclass', 'regclass'],
    ['SELECT 23::regtype', 'regtype'],
    ["SELECT 'now()'::regproc", 'regproc'],
    ["SELECT 'now()'::regprocedure", 'regprocedure'],
    ["SELECT '+'::regoper", 'regoper'],
    ["SELECT '+(int,int)'::regoperator", 'regoperator'],
    ["SELECT 'data'::regnamespace", 'regnamespace'],
    ["SELECT 'postgres'::regrole", 'regrole'],
    ['SELECT \'"C"\'::regcollation', 'regcollation'],
    ["SELECT 'english'::regconfig", 'regconfig'],
    ["SELECT 'simple'::regdictionary", 'regdictionary'],
    ["SELECT '{data.ds_x}'::regclass[]", 'regclass'],
    ["SELECT '{data.ds_x}'::_regclass", '_regclass'],
    ['SELECT (ROW(1, 2, 3)::pg_sequences).data_type', 'pg_sequences'],
    ['SELECT (NULL::pg_class).relname', 'pg_class'],
    ['SELECT (NULL::pg_catalog.pg_attribute).attname', 'pg_attribute'],
    ['SELECT NULL::users', 'users'],
    ['SELECT NULL::public.users', 'public.users'],
    ['SELECT NULL::data.ds_x', 'data.ds_x'],
    ['SELECT NULL::ds_x', 'ds_x'],
    ['SELECT NULL::sales', 'sales'],
    ["SELECT 'x'::aclitem", 'aclitem'],
    ["SELECT '1'::xid", 'xid'],
    ["SELECT '(0,1)'::tid", 'tid'],
    ["SELECT 'a'::tsquery", 'tsquery'],
    ['SELECT x::oid FROM generate_series(1, 3) x', 'oid'],
    ['SELECT (SELECT NULL::pg_type) IS NULL', 'pg_type'],
    ['SELECT * FROM sales WHERE amount::text = (NULL::pg_roles)::text', 'pg_roles'],
  ])('refuses %s', async (sql, shown) => {
    expect((await refusal(sql)).message).toBe(`a cast to ${shown} is not allowed in a query`);
  });

  it.each([
    ["SELECT to_regclass('data.ds_x')", 'to_regclass'],
    ["SELECT regclass('data.ds_x')", 'regclass'],
    ["SELECT has_table_privilege('data.ds_x', 'select')", 'has_table_privilege'],
    ["SELECT pg_relation_size('data.ds_x')", 'pg_relation_size'],
    ["SELECT pg_table_size('data.ds_x')", 'pg_table_size'],
    ['SELECT pg_typeof(1)', 'pg_typeof'],
    ['SELECT format_type(23, -1)', 'format_type'],
    ['SELECT pg_get_viewdef(1259)', 'pg_get_viewdef'],
    ["SELECT json_populate_record(NULL, '{}')", 'json_populate_record'],
    ['SELECT obj_description(1259)', 'obj_description'],
    ['SELECT pg_current_xact_id()', 'pg_current_xact_id'],
    ['SELECT pg_stat_get_numscans(1259)', 'pg_stat_get_numscans'],
  ])('refuses the catalogue function in %s', async (sql, name) => {
    expect((await refusal(sql)).message).toBe(`function ${name} is not allowed in a query`);
  });

  it('refuses a cast whatever the name, so refusal never tells whether a type exists', async () => {
    const messages = await Promise.all(
      ['NULL::ds_exists', 'NULL::ds_never_made'].map(
        async (value) => (await refusal(`SELECT ${value}`)).message,
      ),
    );
    expect(messages).toEqual([
      'a cast to ds_exists is not allowed in a query',
      'a cast to ds_never_made is not allowed in a query',
    ]);
  });

  it('points at the type of a typed literal', async () => {
    expect((await refusal("SELECT regclass 'x'")).position).toBe(8);
  });

  it.each([
    "SELECT 1::int, 2::double precision, 'x'::varchar(3), true::boolean, '1'::bigint",
    "SELECT now()::timestamp with time zone, '1 day'::interval, interval '1' day, date '2026-01-01'",
    "SELECT '{1,2}'::int[], '{}'::text[], '{\"a\":1}'::jsonb, '1.5'::numeric(4, 1), 'x'::pg_catalog.text",
    "SELECT CAST(amount AS numeric), amount::text, '00000000-0000-0000-0000-000000000000'::uuid FROM sales",
    "SELECT B'101'::bit(3), 'x'::bytea, '10.0.0.1'::inet, '$.a'::jsonpath, 'x'::char(2)",
  ])('accepts base types: %s', async (sql) => {
    await expect(checkQuery(sql)).resolves.toBeDefined();
  });
});

describe('checkQuery: format() cannot build a huge value', () => {
  it.each([
    "SELECT format('%900000000s', 'x')",
    "SELECT format('%-10001s', 'x')",
    "SELECT format('%1$900000000s', 'x')",
    "SELECT format('%*s', 900000000, 'x')",
    "SELECT format('%*1$s', 900000000)",
    "SELECT format(repeat('%s', 2), 'x', 'y')",
    "SELECT format(note, 'x') FROM sales",
  ])('refuses %s', async (sql) => {
    expect((await refusal(sql)).message).toBe(
      'format() needs a constant format text with field widths of at most 10000',
    );
  });

  it.each(["SELECT format('%s has %10s and %-3s%%', 'a', 'b', 'c')", "SELECT format('%2$s %1$s', 'a', 'b')"])(
    'accepts %s',
    async (sql) => {
      await expect(checkQuery(sql)).resolves.toBeDefined();
    },
  );
});

/** Tried from outside and found already closed: kept so they stay closed. */
describe('checkQuery: row locks, cursors, notifications and prepared statements stay out', () => {
  it.each([
    ['WITH x AS (SELECT * FROM sales FOR UPDATE) SELECT 1', /^FOR UPDATE\/SHARE locks rows/],
    ['SELECT * FROM (SELECT * FROM sales FOR SHARE) s', /^FOR UPDATE\/SHARE locks rows/],
    ['SELECT 1 UNION (SELECT 1 FROM sales FOR KEY SHARE)', /^FOR UPDATE\/SHARE locks rows/],
    ['SELECT EXISTS (SELECT 1 FROM sales FOR NO KEY UPDATE NOWAIT)', /^FOR UPDATE\/SHARE locks rows/],
    ['DECLARE c CURSOR FOR SELECT 1', /^DeclareCursor is not allowed/],
    ['LISTEN x', /^Listen is not allowed/],
    ["NOTIFY x, 'y'", /^Notify is not allowed/],
    ['PREPARE p AS SELECT 1', /^Prepare is not allowed/],
  ])('refuses %s', async (sql, message) => {
    expect((await refusal(sql)).message).toMatch(message);
  });
});
