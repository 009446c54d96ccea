import { checkQuery } from './query-check';
import { QueryRefusal } from './query-refusal';
import { substituteTables } from './table-substitution';

const guarded = async (sql: string) => (await checkQuery(sql)).text;

describe('checkQuery: every argument of a value-building aggregate is counted by the guard', () => {
  it.each([
    [
      "SELECT string_agg(name, ', ' ORDER BY name) FROM t",
      "SELECT string_agg(query_guard.aggregated(name, 2), ', ' ORDER BY name) FROM t",
    ],
    ['SELECT array_agg(DISTINCT x) FROM t', 'SELECT array_agg(DISTINCT query_guard.aggregated(x, 8)) FROM t'],
    [
      'SELECT json_agg(t) FILTER (WHERE a > 1) OVER (PARTITION BY b) FROM t',
      'SELECT json_agg(query_guard.aggregated(t, 0)) FILTER (WHERE a > 1) OVER (PARTITION BY b) FROM t',
    ],
    [
      'SELECT jsonb_object_agg(k, v) FROM t',
      'SELECT jsonb_object_agg(query_guard.aggregated(k, 16), query_guard.aggregated(v, 16)) FROM t',
    ],
    // A computed separator is counted on its own; a constant one through the value.
    [
      'SELECT string_agg(a, b) FROM t',
      'SELECT string_agg(query_guard.aggregated(a, 0), query_guard.aggregated(b, 0)) FROM t',
    ],
    [
      "SELECT json_object_agg('key', v) FROM t",
      "SELECT json_object_agg('key', query_guard.aggregated(v, 3)) FROM t",
    ],
    ["SELECT array_agg('x') FROM t", "SELECT array_agg(query_guard.aggregated('x', 9)) FROM t"],
  ])('%s', async (sql, expected) => {
    expect(await guarded(sql)).toBe(expected);
  });

  it('is not misled by parentheses and commas in strings, names, comments or nested calls', async () => {
    const sql = `SELECT pg_catalog . string_agg ( /* ) , */ coalesce(a, ')'), -- ),
      E'\\')' || "x,)" || $q$,)$q$ || $$)$$ ORDER BY (SELECT max(c) FROM u), 2) FROM t`;
    expect(await guarded(sql))
      .toBe(`SELECT pg_catalog . string_agg ( /* ) , */ query_guard.aggregated(coalesce(a, ')'), 0), -- ),
      query_guard.aggregated(E'\\')' || "x,)" || $q$,)$q$ || $$)$$, 0) ORDER BY (SELECT max(c) FROM u), 2) FROM t`);
  });

  it('guards aggregates inside the arguments of others and in subqueries', async () => {
    expect(await guarded('SELECT array_agg((SELECT string_agg(x, y) FROM u)) FROM t')).toBe(
      'SELECT array_agg(query_guard.aggregated((SELECT string_agg(query_guard.aggregated(x, 0), query_guard.aggregated(y, 0)) FROM u), 8)) FROM t',
    );
  });

  it('refuses a call whose arguments it cannot read rather than run it unguarded', async () => {
    await expect(checkQuery(`SELECT U&"string_agg"(x, ',') FROM t`)).rejects.toThrow(
      new QueryRefusal('write this call of string_agg more plainly'),
    );
  });

  it('leaves a statement without them as written', async () => {
    const sql = 'SELECT count(*), max(name) FROM t GROUP BY 1';
    expect(await guarded(sql)).toBe(sql);
  });

  it('refuses a call of the guard in the user’s own query', async () => {
    await expect(checkQuery('SELECT query_guard.aggregated(x, -100000000) FROM t')).rejects.toThrow(
      new QueryRefusal('function query_guard.aggregated is not allowed in a query'),
    );
    await expect(
      checkQuery('SELECT string_agg(query_guard.aggregated(x, -100000000), ",") FROM t'),
    ).rejects.toBeInstanceOf(QueryRefusal);
  });

  it('takes positions in the guarded statement back to the user’s text', async () => {
    const sql = 'SELECT string_agg(a, b), zzz FROM t';
    const checked = await checkQuery(sql);
    const position = checked.text.indexOf('zzz') + 1;
    expect(checked.originalPosition(position)).toBe(sql.indexOf('zzz') + 1);
    // Inside an insertion: where it was inserted.
    expect(checked.originalPosition(checked.text.indexOf('query_guard') + 3)).toBe(sql.indexOf('a,') + 1);
  });

  it('finds the tables of the guarded statement where they stand in it, after characters of several bytes', async () => {
    const checked = await checkQuery("SELECT 'é' AS e, string_agg(s.name, 'é') FROM sales s");
    expect(checked.text).toBe(
      "SELECT 'é' AS e, string_agg(query_guard.aggregated(s.name, 2), 'é') FROM sales s",
    );
    const held = new Map([['sales', { name: 'sales', tableName: 't_1', columns: ['name'] }]]);
    const { sql } = substituteTables(checked.text, checked.tables, held, checked.originalPosition);
    expect(sql).toContain('FROM (SELECT "name" FROM data."t_1") s');
  });
});
