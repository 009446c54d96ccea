import { argumentSpans } from './call-arguments';
import { QueryRefusal } from './query-refusal';

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

interface Insertion {
  at: number;
  text: string;
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

/** Character indexes of ascending byte offsets into `text`, in one pass. */
function characterIndexes(text: string, byteOffsets: number[]): number[] {
  const indexes: number[] = [];
  let bytes = 0;
  let index = 0;
  for (const offset of byteOffsets) {
    while (bytes < offset && index < text.length) {
      const code = text.codePointAt(index)!;
      bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
      index += code >= 0x10000 ? 2 : 1;
    }
    indexes.push(index);
  }
  return indexes;
}

/**
 * The statement with every argument of the value aggregates wrapped in the guard, and how a
 * position in it maps back to the text the user wrote. A constant argument is counted through
 * the call's other argument instead (string_agg's separator, once per row).
 */
export function guardAggregates(
  sql: string,
  calls: ValueAggregateCall[],
): { sql: string; originalPosition: (position: number) => number } {
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
      insertions.push({ at: spans[position].start, text: `${AGGREGATE_GUARD.join('.')}(` });
      insertions.push({ at: spans[position].end, text: `, ${overhead})` });
    });
  });
  // In text order; where an argument's end meets another's start (never, commas stand between) the end goes first.
  insertions.sort((first, second) => first.at - second.at || (first.text.startsWith(',') ? -1 : 1));
  let rewritten = '';
  let copied = 0;
  for (const { at, text } of insertions) {
    rewritten += sql.slice(copied, at) + text;
    copied = at;
  }
  rewritten += sql.slice(copied);
  const originalPosition = (position: number): number => {
    let shift = 0;
    for (const { at, text } of insertions) {
      const start = at + shift + 1;
      if (position < start) break;
      if (position < start + text.length) return at + 1;
      shift += text.length;
    }
    return position - shift;
  };
  return { sql: rewritten, originalPosition };
}
