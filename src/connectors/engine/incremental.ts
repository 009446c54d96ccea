import type { DateTime } from 'luxon';
import type { IncrementalSpec } from '../dsl/connector-spec.types';
import { safeColumnName, textKind } from './column-types';
import { ConnectorFetchError } from './connector-fetch-error';
import { readCursorDate } from './cursor-format';
import { durationOf, formatDate, isoText, toDateTime } from './date-functions';
import { valueAtResponsePath } from './response-path';
import type { IncrementalState, RunPlan } from './run-plan';
import { valueAtPath } from './template';

/** Most windows one run reads (ten years of days); the rest waits for the next run. */
export const MAX_WINDOWS = 3660;

/** What an incremental run sends: the start (after lookback) and, with windows, each window. */
export interface IncrementalRead {
  /** The value the request sends, formatted; null on a first run with no start value. */
  since: string | number | null;
  windows: Array<{ start: string | number; end: string | number }> | null;
}

function isDateCursor(value: unknown, spec: IncrementalSpec): boolean {
  if (spec.cursor_format || spec.format === 'unix' || spec.format === 'unix_ms') return true;
  if (value instanceof Date) return true;
  if (typeof value !== 'string') return false;
  if (/^-P/i.test(value)) return true;
  const kind = textKind(value);
  return kind === 'date' || kind === 'timestamptz';
}

/**
 * A cursor as an instant: in its declared input format (a start value may still be ISO), else a
 * unix_ms cursor in milliseconds, else any date.
 */
function cursorDate(value: unknown, spec: IncrementalSpec): DateTime | null {
  if (spec.cursor_format) return readCursorDate(value, spec.cursor_format) ?? toDateTime(value);
  if (spec.format === 'unix_ms' && (typeof value === 'number' || typeof value === 'string'))
    return toDateTime(Number(value) / 1000);
  return toDateTime(value);
}

/** The first value read: the saved cursor, else the start setting, else the spec's start. */
function startValue(
  spec: IncrementalSpec,
  settings: Record<string, unknown>,
  state?: IncrementalState | null,
) {
  const saved = state?.cursor;
  if (saved !== undefined && saved !== null && saved !== '') return { value: saved, saved: true };
  const fromSetting = spec.start_setting ? valueAtPath(settings, spec.start_setting) : undefined;
  if (fromSetting !== undefined && fromSetting !== null && fromSetting !== '')
    return { value: fromSetting, saved: false };
  return { value: spec.start ?? null, saved: false };
}

/**
 * Where an incremental run starts and which windows it reads, from the saved state (minus the
 * lookback), the start setting or the spec's start; windows up to the end of today.
 */
export function incrementalRead(plan: RunPlan, now: DateTime): IncrementalRead | null {
  const spec = plan.incremental;
  if (!spec) return null;
  const start = startValue(spec, plan.settings, plan.state);
  if (start.value === null) {
    if (spec.window)
      throw new ConnectorFetchError('incremental: windows need a start value (start or start_setting)');
    return { since: null, windows: null };
  }
  if (!isDateCursor(start.value, spec)) {
    return { since: start.value as string | number, windows: null };
  }
  const relative = typeof start.value === 'string' && /^-P/i.test(start.value);
  let from = relative ? relativeStart(now, start.value as string) : cursorDate(start.value, spec);
  if (!from) throw new ConnectorFetchError(`incremental: '${String(start.value)}' is not a date`);
  if (start.saved && spec.lookback) from = from.minus(durationOf(spec.lookback));
  const since = formatDate(from, spec.format);
  if (!spec.window) return { since, windows: null };
  const step = durationOf(spec.window.step);
  // Windows reach the end of today, so a first run includes today whole; never a date to come,
  // which some APIs refuse.
  const until = now.endOf('day').startOf('second');
  const windows: IncrementalRead['windows'] = [];
  for (let cursor = from; cursor < until && windows.length < MAX_WINDOWS;) {
    const next = cursor.plus(step);
    const end = next < until ? next : until;
    windows.push({ start: formatDate(cursor, spec.format), end: formatDate(end, spec.format) });
    cursor = next;
  }
  return { since, windows };
}

/**
 * A start given as a duration back from now: whole days (-P5D) count from the start of that day,
 * so "the last five days" are five whole days and today; a duration with hours counts from now.
 */
function relativeStart(now: DateTime, text: string): DateTime {
  const duration = durationOf(text.slice(1));
  const back = now.minus(duration);
  const timed = duration.hours !== 0 || duration.minutes !== 0 || duration.seconds !== 0;
  return timed ? back : back.startOf('day');
}

/** The cursor values of the records a run stored, in the order they came. */
export interface CursorSeen {
  greatest?: unknown;
  last?: unknown;
  /** Records that had a cursor value. */
  count: number;
  /** Whether every record's cursor was at least the one before it (oldest first). */
  ascending: boolean;
  /** The record field whose column name the cursor_field gave. */
  columnKey?: string;
}

export function noCursorSeen(): CursorSeen {
  return { count: 0, ascending: true };
}

/**
 * Whether a run stopped early keeps the previous state: when its records did not come oldest
 * first (Stripe and Facebook list newest first), or were too few to tell, the greatest cursor
 * seen is past records it never read, and saving it would skip them for ever.
 */
export function keepsPreviousState(seen: CursorSeen, capped: boolean): boolean {
  // One record shows no order: saving its cursor could skip the rest just the same.
  return capped && seen.count > 0 && (!seen.ascending || seen.count === 1);
}

export const KEPT_STATE_WARNING =
  'Partial incremental read: the records did not come oldest first (or were too few to tell), so the saved position stays where it was and the next run reads from there again (raise max_pages to read everything in one run)';

/**
 * The state a committed run leaves: the greatest cursor value seen, never less than before; a
 * run stopped by a cap with records not oldest first keeps the previous state.
 */
export function nextState(
  spec: IncrementalSpec,
  previous: IncrementalState | null | undefined,
  seen: CursorSeen,
  capped = false,
): IncrementalState | null {
  if (seen.greatest === undefined || seen.greatest === null || keepsPreviousState(seen, capped))
    return previous ?? null;
  const cursor = cursorText(seen.greatest);
  const before = previous?.cursor;
  if (before !== undefined && before !== null && compareCursor(cursor, before, spec) <= 0) return previous!;
  return { cursor };
}

function cursorText(value: unknown): string | number {
  if (typeof value === 'number') return value;
  return String(value);
}

/** Orders two cursor values: as dates when both are, as numbers when both are, else as text. */
export function compareCursor(left: unknown, right: unknown, spec: IncrementalSpec): number {
  if (spec.cursor_format) {
    const a = cursorDate(left, spec);
    const b = cursorDate(right, spec);
    if (a && b) return a.toMillis() - b.toMillis();
  }
  if (isDateCursor(left, spec) && isDateCursor(right, spec) && spec.format !== 'unix_ms') {
    const a = toDateTime(left);
    const b = toDateTime(right);
    if (a && b) return a.toMillis() - b.toMillis();
  }
  const numberA = Number(String(left));
  const numberB = Number(String(right));
  if (
    String(left).trim() !== '' &&
    String(right).trim() !== '' &&
    !Number.isNaN(numberA) &&
    !Number.isNaN(numberB)
  )
    return numberA - numberB;
  return String(left) < String(right) ? -1 : String(left) > String(right) ? 1 : 0;
}

/**
 * A record's cursor value: the field as named, a dotted path into it, or the field whose column
 * the table shows under that name (`fields_last_modified` for `fields_Last Modified`); the field
 * found that way is remembered in `seen`, so later records are not searched key by key.
 */
function cursorValueOf(record: Record<string, unknown>, field: string, seen: CursorSeen): unknown {
  if (field in record) return record[field];
  if (seen.columnKey !== undefined && seen.columnKey in record) return record[seen.columnKey];
  const nested = valueAtResponsePath(record, field);
  if (nested !== undefined) return nested;
  const key = Object.keys(record).find((name) => safeColumnName(name) === field);
  if (key === undefined) return undefined;
  seen.columnKey = key;
  return record[key];
}

/** A page's records folded into the cursor values seen before: the greatest, and their order. */
export function foldCursor(
  spec: IncrementalSpec,
  records: Record<string, unknown>[],
  seen: CursorSeen,
): CursorSeen {
  const next = { ...seen };
  for (const record of records) {
    const value = cursorValueOf(record, spec.cursor_field, next);
    if (value === undefined || value === null || value === '') continue;
    next.count++;
    if (next.last !== undefined && compareCursor(value, next.last, spec) < 0) next.ascending = false;
    next.last = value;
    if (next.greatest === undefined || compareCursor(value, next.greatest, spec) > 0) next.greatest = value;
  }
  return next;
}

/** A run that stored records none of which carries the cursor would read everything again each time. */
export function requireCursorSeen(spec: IncrementalSpec, rows: number, seen: CursorSeen): void {
  if (rows > 0 && seen.count === 0)
    throw new ConnectorFetchError(
      `incremental: none of the ${rows} records read has a value in the cursor field '${spec.cursor_field}'; name a record field or a column of the table`,
    );
}

export { isoText };
