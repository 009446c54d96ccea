import { isLosslessNumber } from 'lossless-json';
import { DateTime, Duration } from 'luxon';

/**
 * Date functions of templates (luxon): `{{now}}`, `{{today}}`, and pipes on any date value —
 * `{{today | minus:P7D | format:date}}`, `{{state.cursor | plus:PT1S | format:unix}}`.
 * Pipes: minus:<ISO duration>, plus:<ISO duration>, start_of:<day|week|month|year|hour>,
 * format:<iso|date|unix|unix_ms|rfc2822|http|a luxon format such as yyyyMMdd>. All in UTC.
 */
export const DATE_ROOTS = ['now', 'today'];

/** The run's clock: `now` set in the values (a run's start), or the current time. */
export function clockOf(values: Record<string, unknown>): DateTime {
  const set = values.now;
  const parsed = set === undefined ? null : toDateTime(set);
  return parsed ?? DateTime.utc();
}

/** `now` and `today` as dates. */
export function dateRoot(values: Record<string, unknown>, path: string): DateTime | undefined {
  if (path === 'now') return clockOf(values);
  if (path === 'today') return clockOf(values).startOf('day');
  return undefined;
}

/** A value read as a date: a DateTime, a Date, ISO text, or a unix time in seconds. */
export function toDateTime(value: unknown): DateTime | null {
  if (value instanceof DateTime) return value.toUTC();
  if (value instanceof Date) return DateTime.fromJSDate(value, { zone: 'utc' });
  if (typeof value === 'number' || isLosslessNumber(value)) {
    const seconds = Number(value);
    return Number.isFinite(seconds) ? DateTime.fromSeconds(seconds, { zone: 'utc' }) : null;
  }
  if (typeof value === 'string' && value.trim() !== '') {
    const text = value.trim();
    if (/^-?\d+(\.\d+)?$/.test(text)) return DateTime.fromSeconds(Number(text), { zone: 'utc' });
    const parsed = DateTime.fromISO(text.replace(' ', 'T'), { zone: 'utc', setZone: false }).toUTC();
    return parsed.isValid ? parsed : null;
  }
  return null;
}

export function isoText(date: DateTime): string {
  return date.toUTC().toISO({ suppressMilliseconds: true }) ?? '';
}

/** A date written in a declared format. */
export function formatDate(date: DateTime, format: string | undefined): string | number {
  const utc = date.toUTC();
  switch (format ?? 'iso') {
    case 'iso':
      return isoText(utc);
    case 'date':
      return utc.toFormat('yyyy-MM-dd');
    case 'unix':
      return Math.floor(utc.toSeconds());
    case 'unix_ms':
      return utc.toMillis();
    case 'rfc2822':
      return utc.toRFC2822() ?? '';
    case 'http':
      return utc.toHTTP() ?? '';
    default:
      return utc.toFormat(format!);
  }
}

/** An ISO-8601 duration (`P1D`, `PT6H`); throws a message naming it when it is not one. */
export function durationOf(text: string): Duration {
  const duration = Duration.fromISO(text.trim());
  if (!duration.isValid) throw new Error(`'${text}' is not an ISO-8601 duration such as P1D or PT1H`);
  return duration;
}

const UNITS = ['hour', 'day', 'week', 'month', 'year'] as const;

/** Applies `| name:arg` pipes to a date value; a value that is not a date passes through unchanged. */
export function applyDatePipes(value: unknown, pipes: string): unknown {
  let date = toDateTime(value);
  if (!date) return value;
  let result: unknown;
  for (const pipe of pipes
    .split('|')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const colon = pipe.indexOf(':');
    const name = colon === -1 ? pipe : pipe.slice(0, colon).trim();
    const arg = colon === -1 ? '' : pipe.slice(colon + 1).trim();
    if (name === 'minus') date = date.minus(durationOf(arg));
    else if (name === 'plus') date = date.plus(durationOf(arg));
    else if (name === 'start_of' && (UNITS as readonly string[]).includes(arg))
      date = date.startOf(arg as (typeof UNITS)[number]);
    else if (name === 'format') result = formatDate(date, arg);
  }
  return result ?? isoText(date);
}

/** The pipe names a template may use (the upload validator checks them). */
export const DATE_PIPES = ['minus', 'plus', 'start_of', 'format'];
