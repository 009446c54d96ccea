import { isLosslessNumber } from 'lossless-json';
import { DateTime } from 'luxon';

/** The named ways an API writes a date cursor; any other `cursor_format` is a luxon pattern. */
export const NAMED_CURSOR_FORMATS = ['iso', 'rfc2822', 'http', 'unix', 'unix_ms'] as const;

/**
 * A cursor value read as an instant in its declared input format (Twilio's RFC 2822
 * `Tue, 14 Jan 2025 10:00:00 +0000`, unix seconds or milliseconds, `dd/MM/yyyy HH:mm`), so
 * cursors compare as instants, not as text. Null when the value is not in that format.
 */
export function readCursorDate(value: unknown, format: string): DateTime | null {
  if (value === undefined || value === null || value === '') return null;
  const text = isLosslessNumber(value) ? value.toString() : String(value).trim();
  let date: DateTime;
  switch (format) {
    case 'iso':
      date = DateTime.fromISO(text.replace(' ', 'T'), { zone: 'utc' });
      break;
    case 'rfc2822':
      date = DateTime.fromRFC2822(text, { zone: 'utc' });
      break;
    case 'http':
      date = DateTime.fromHTTP(text, { zone: 'utc' });
      break;
    case 'unix':
    case 'unix_ms': {
      const number = Number(text);
      if (text === '' || !Number.isFinite(number)) return null;
      date = DateTime.fromMillis(format === 'unix' ? number * 1000 : number, { zone: 'utc' });
      break;
    }
    default:
      date = DateTime.fromFormat(text, format, { zone: 'utc' });
  }
  return date.isValid ? date.toUTC() : null;
}

/**
 * Whether a luxon pattern reads back the date it writes (at least its year: `EEEE` alone reads a
 * weekday of this week); a pattern that does not would never give a cursor its instant.
 */
export function isReadablePattern(format: string): boolean {
  if ((NAMED_CURSOR_FORMATS as readonly string[]).includes(format)) return true;
  const sample = DateTime.utc(2024, 3, 9, 14, 5, 6);
  const parsed = DateTime.fromFormat(sample.toFormat(format), format, { zone: 'utc' });
  return parsed.isValid && parsed.year === sample.year;
}
