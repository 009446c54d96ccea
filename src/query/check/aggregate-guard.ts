import { argumentSpans } from './call-arguments';
import { QueryRefusal } from './query-refusal';
import { characterIndexes, Insertion, wrap } from './text-insertions';

/**
 * The aggregates that build one value out of all their rows, and the bytes each keeps per
 * element beside the text of its arguments (a Datum and a flag per array element; a parsed jsonb
 * value per element). Each of their arguments goes through query_guard.aggregated (migration
 * QueryAggregateGuard), which counts it towards the statement's 16 MB and hands it on unchanged.
 */
export const VALUE_AGGREGATES: ReadonlyMap<string, number> = new Map([
  ['string_agg', 0],
  ['array_agg', 8],
  ['json_agg', 0],
  ['jsonb_agg', 16],
  ['json_object_agg', 0],
  ['jsonb_object_agg', 16],
]);

export const AGGREGATE_GUARD = ['query_guard', 'aggregated'];

/** A call of a value aggregate as the check found it. */
export interface ValueAggregateCall {
  name: string;
  /** Where its name starts, in UTF-8 bytes as the parser counts. */
  byteOffset: number;
  args: Array<Record<string, unknown>>;
}

/**
 * A constant text argument, counted from the query rather than per row (the usual separator of
 * string_agg): its bytes, or undefined when the argument is computed.
 */
export function constantBytes(argument: Record<string, unknown>): number | undefined {
  const constant = argument.A_Const as { sval?: { sval?: string }; isnull?: boolean } | undefined;
  if (!constant) return undefined;
  if (constant.isnull) return 0;
  return constant.sval ? Buffer.byteLength(constant.sval.sval ?? '', 'utf8') : undefined;
}

/**
 * Insertions that wrap every argument of the value aggregates in the guard. A constant argument
 * is counted through the call's other argument instead (string_agg's separator, once per row).
 */
export function aggregateInsertions(sql: string, calls: ValueAggregateCall[]): Insertion[] {
  const sorted = [...calls].sort((first, second) => first.byteOffset - second.byteOffset);
  const starts = characterIndexes(
    sql,
    sorted.map((call) => call.byteOffset),
  );
  const insertions: Insertion[] = [];
  sorted.forEach((call, index) => {
    const spans = argumentSpans(sql, starts[index]);
    if (!spans || spans.length !== call.args.length)
      throw new QueryRefusal(`write this call of ${call.name} more plainly`, starts[index] + 1);
    const constants = call.args.map(constantBytes);
    const counted = constants.flatMap((bytes, position) => (bytes === undefined ? [position] : []));
    // All constant (string_agg('a', ',')): still counted per row, through the first.
    if (counted.length === 0) counted.push(0);
    const perRow = VALUE_AGGREGATES.get(call.name) ?? 0;
    const constantTotal = constants.reduce<number>((sum, bytes) => sum + (bytes ?? 0), 0);
    counted.forEach((position, order) => {
      const overhead = perRow + (order === 0 ? constantTotal : 0);
      const { start, end } = spans[position];
      insertions.push(...wrap(start, end, `${AGGREGATE_GUARD.join('.')}(`, `, ${overhead})`, 0));
    });
  });
  return insertions;
}
