import type { DateTime } from 'luxon';
import type { IncrementalSpec } from '../dsl/connector-spec.types';
import { textKind } from './column-types';
import { ConnectorFetchError } from './connector-fetch-error';
import { durationOf, formatDate, isoText, toDateTime } from './date-functions';
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
  if (spec.format === 'unix' || spec.format === 'unix_ms') return true;
  if (value instanceof Date) return true;
  if (typeof value !== 'string') return false;
  if (/^-P/i.test(value)) return true;
  const kind = textKind(value);
  return kind === 'date' || kind === 'timestamptz';
}

/** A unix_ms cursor is read back in milliseconds. */
function cursorDate(value: unknown, spec: IncrementalSpec): DateTime | null {
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
 * lookback), the start setting or the spec's start, up to `now`.
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
  let from =
    typeof start.value === 'string' && /^-P/i.test(start.value)
      ? now.minus(durationOf(start.value.slice(1)))
      : cursorDate(start.value, spec);
  if (!from) throw new ConnectorFetchError(`incremental: '${String(start.value)}' is not a date`);
  if (start.saved && spec.lookback) from = from.minus(durationOf(spec.lookback));
  const since = formatDate(from, spec.format);
  if (!spec.window) return { since, windows: null };
  const step = durationOf(spec.window.step);
  const windows: IncrementalRead['windows'] = [];
  for (let cursor = from; cursor < now && windows.length < MAX_WINDOWS;) {
    const next = cursor.plus(step);
    const end = next < now ? next : now;
    windows.push({ start: formatDate(cursor, spec.format), end: formatDate(end, spec.format) });
    cursor = next;
  }
  return { since, windows };
}

/** The state a committed run leaves: the greatest cursor value seen, never less than before. */
export function nextState(
  spec: IncrementalSpec,
  previous: IncrementalState | null | undefined,
  seen: unknown,
): IncrementalState | null {
  if (seen === undefined || seen === null) return previous ?? null;
  const cursor = cursorText(seen);
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

/** The greatest cursor value of a page's records, folded into what was seen before. */
export function greatestCursor(
  spec: IncrementalSpec,
  records: Record<string, unknown>[],
  seen: unknown,
): unknown {
  let greatest = seen;
  for (const record of records) {
    const value = record[spec.cursor_field];
    if (value === undefined || value === null || value === '') continue;
    if (greatest === undefined || greatest === null || compareCursor(value, greatest, spec) > 0)
      greatest = value;
  }
  return greatest;
}

export { isoText };
