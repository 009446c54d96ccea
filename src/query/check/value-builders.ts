import { AGGREGATE_GUARD } from './aggregate-guard';
import { callSpans, constructorEnd } from './call-arguments';
import { QueryRefusal } from './query-refusal';
import { characterIndexes, Insertion, wrap } from './text-insertions';

/**
 * Functions that build one value out of any number of others and take VARIADIC "any", so no
 * guard of the same signature can stand in for them in SQL (as query_guard's do for repeat,
 * array_cat and the `||` operators, migrations QueryValueGuards and QueryCompositionGuards). The
 * check wraps each whole call in query_guard.capped instead, which refuses a result past 16 MB:
 * what one call builds before that is at most the sum of its arguments, each of them capped in
 * turn, so values can no longer double level after level (WITH, recursion) up to PostgreSQL's 1 GB.
 * to_json and to_jsonb take one value, but a row of many (to_json(t), to_json(ROW(a, a))).
 */
export const VALUE_BUILDERS: ReadonlySet<string> = new Set([
  'concat',
  'concat_ws',
  'format',
  'json_build_array',
  'json_build_object',
  'jsonb_build_array',
  'jsonb_build_object',
  'to_json',
  'to_jsonb',
]);

export const VALUE_CAP = ['query_guard', 'capped'];

/** A call of a value builder as the check found it: where its name starts, in UTF-8 bytes. */
export interface ValueBuilderCall {
  name: string;
  byteOffset: number;
}

/**
 * `ARRAY(SELECT …)` gathers its rows into one array as array_agg does, so each element is counted
 * the same way, towards the statement's 16 MB: the subquery becomes
 * `SELECT query_guard.aggregated(element, 8) FROM (<subquery>) AS query_array(element)`.
 */
export const ARRAY_ELEMENT = ['query_array', 'element'];

/** Insertions that count the elements of each `ARRAY(subquery)` starting at these byte offsets. */
export function arraySubqueryInsertions(sql: string, byteOffsets: number[]): Insertion[] {
  const starts = characterIndexes(
    sql,
    [...byteOffsets].sort((first, second) => first - second),
  );
  return starts.flatMap((start) => {
    const spans = callSpans(sql, start);
    if (!spans) throw new QueryRefusal('write this ARRAY(SELECT …) more plainly', start + 1);
    const [table, column] = ARRAY_ELEMENT;
    return wrap(
      spans.open + 1,
      spans.end - 1,
      `SELECT ${AGGREGATE_GUARD.join('.')}(${table}.${column}, 8) FROM (`,
      `) AS ${table}(${column})`,
      2,
    );
  });
}

/**
 * Row and array constructors (`ROW(s, s)`, `(s, s)`, `ARRAY[s, s]`) are at most the sum of their
 * parts too, and are capped the same way, each whole constructor wrapped. Not those a row
 * comparison, IN list or GROUP BY takes apart (`(a, b) = (c, d)`, `GROUP BY (a, b)`): those
 * build no value, and wrapped they would mean something else.
 */
export function constructorInsertions(sql: string, byteOffsets: number[]): Insertion[] {
  const starts = characterIndexes(
    sql,
    [...byteOffsets].sort((first, second) => first - second),
  );
  return starts.flatMap((start) => {
    const end = constructorEnd(sql, start);
    if (end === undefined) throw new QueryRefusal('write this ROW(…) or ARRAY[…] more plainly', start + 1);
    return wrap(start, end, `${VALUE_CAP.join('.')}(`, ')', 1);
  });
}

/** Insertions that wrap each whole call in the cap. */
export function builderInsertions(sql: string, calls: ValueBuilderCall[]): Insertion[] {
  const sorted = [...calls].sort((first, second) => first.byteOffset - second.byteOffset);
  const starts = characterIndexes(
    sql,
    sorted.map((call) => call.byteOffset),
  );
  return sorted.flatMap((call, index) => {
    const spans = callSpans(sql, starts[index]);
    if (!spans) throw new QueryRefusal(`write this call of ${call.name} more plainly`, starts[index] + 1);
    return wrap(starts[index], spans.end, `${VALUE_CAP.join('.')}(`, ')', 1);
  });
}
