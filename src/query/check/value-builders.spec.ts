import { checkQuery } from './query-check';
import { QueryRefusal } from './query-refusal';

const guarded = async (sql: string) => (await checkQuery(sql)).text;

describe('checkQuery: values composed from others stay under the cap', () => {
  it.each([
    [
      "SELECT concat(a, b), format('%s', x) FROM t",
      "SELECT query_guard.capped(concat(a, b)), query_guard.capped(format('%s', x)) FROM t",
    ],
    [
      "SELECT concat_ws(',', a, b) AS c FROM t",
      "SELECT query_guard.capped(concat_ws(',', a, b)) AS c FROM t",
    ],
    [
      "SELECT jsonb_build_object('k', to_jsonb(t)), json_build_array(a) FROM t",
      "SELECT query_guard.capped(jsonb_build_object('k', query_guard.capped(to_jsonb(t)))), query_guard.capped(json_build_array(a)) FROM t",
    ],
    // Inside an aggregate's argument the cap stands within the aggregate's count.
    [
      "SELECT string_agg(concat(a, b), ',') FROM t",
      "SELECT string_agg(query_guard.aggregated(query_guard.capped(concat(a, b)), 1), ',') FROM t",
    ],
    [
      'SELECT ARRAY(SELECT x FROM t ORDER BY 1) AS xs',
      'SELECT ARRAY(SELECT query_guard.aggregated(query_array.element, 8) FROM (SELECT x FROM t ORDER BY 1) AS query_array(element)) AS xs',
    ],
    [
      "SELECT ARRAY(SELECT concat(x, ')') FROM t)",
      "SELECT ARRAY(SELECT query_guard.aggregated(query_array.element, 8) FROM (SELECT query_guard.capped(concat(x, ')')) FROM t) AS query_array(element))",
    ],
    [
      'SELECT ROW(a, b), (a, b) AS r, ARRAY[a, b], array [[1, 2], [3, 4]], ARRAY[]::int[] FROM t',
      'SELECT query_guard.capped(ROW(a, b)), query_guard.capped((a, b)) AS r, query_guard.capped(ARRAY[a, b]), query_guard.capped(array [[1, 2], [3, 4]]), ARRAY[]::int[] FROM t',
    ],
    [
      'SELECT array_agg(ROW(a, b)), to_json((a, b)) FROM t',
      'SELECT array_agg(query_guard.aggregated(query_guard.capped(ROW(a, b)), 8)), query_guard.capped(to_json(query_guard.capped((a, b)))) FROM t',
    ],
    // Rows a comparison, IN list or GROUP BY takes apart build nothing: left as written.
    [
      'SELECT c FROM t WHERE (a, b) = (1, 2) AND ROW(a, b) IN ((1, 2), (3, 4)) AND (a, b) IN (SELECT 1, 2) GROUP BY (a, b), ROLLUP ((a, b), c)',
      'SELECT c FROM t WHERE (a, b) = (1, 2) AND ROW(a, b) IN ((1, 2), (3, 4)) AND (a, b) IN (SELECT 1, 2) GROUP BY (a, b), ROLLUP ((a, b), c)',
    ],
    // `||` and the functions of the same signature are guarded in the database: left as written.
    ['SELECT a || b, array_cat(x, y) FROM t', 'SELECT a || b, array_cat(x, y) FROM t'],
  ])('%s', async (sql, expected) => {
    expect(await guarded(sql)).toBe(expected);
  });

  it.each([
    ["SELECT 'a' OPERATOR(pg_catalog.||) 'b'", 'operator pg_catalog.|| is not allowed in a query'],
    ['SELECT pg_catalog.array_cat(a, b) FROM t', 'call array_cat without a schema'],
    ["SELECT pg_catalog.jsonb_set(j, '{a}', j) FROM t", 'call jsonb_set without a schema'],
    ["SELECT pg_catalog.array_to_string(a, ',', 'x') FROM t", 'call array_to_string without a schema'],
    ["SELECT query_guard.capped('x')", 'function query_guard.capped is not allowed in a query'],
  ])('refuses %s', async (sql, message) => {
    await expect(checkQuery(sql)).rejects.toThrow(new QueryRefusal(message));
  });

  it('maps a position after the insertions back to the text the user wrote', async () => {
    const checked = await checkQuery('SELECT concat(a, b), ARRAY(SELECT x FROM t), nope FROM t');
    const at = checked.text.indexOf('nope') + 1;
    expect(checked.originalPosition(at)).toBe(
      'SELECT concat(a, b), ARRAY(SELECT x FROM t), nope FROM t'.indexOf('nope') + 1,
    );
  });
});
