import type { CsvDialect } from './csv-dialect';

const ZERO = 0x30;
const NINE = 0x39;
const PLUS = 0x2b;
const MINUS = 0x2d;
const DOT = 0x2e;
const SLASH = 0x2f;
const SPACE = 0x20;
const UPPER_E = 0x45;
const LOWER_E = 0x65;
/** UTF-8 of the no-break space (U+00A0) that spreadsheets write between thousands. */
const NBSP_LEAD = 0xc2;
const NBSP_TAIL = 0xa0;

function isDigit(byte: number): boolean {
  return byte >= ZERO && byte <= NINE;
}

/** What a rewrite needs of the dialect, as bytes (-1: none). */
export interface RewriteRules {
  decimal: number;
  thousands: number;
  /** 0: dates as written; 1: day first; 2: month first. */
  dateOrder: 0 | 1 | 2;
}

export function rewriteRules(dialect: CsvDialect): RewriteRules {
  return {
    decimal: dialect.decimal.charCodeAt(0),
    thousands: dialect.thousands === '' ? -1 : dialect.thousands.charCodeAt(0),
    dateOrder: dialect.dateOrder === 'dmy' ? 1 : dialect.dateOrder === 'mdy' ? 2 : 0,
  };
}

/**
 * Writes the number in bytes[start, end) in canonical form (no thousands separators, a dot
 * before the decimals) to out at `at`; answers the end of what was written, or -1 when the value
 * is no number of this dialect (it is then left as written, for the type check to judge).
 * Thousands separators must sit before groups of exactly three digits.
 */
export function rewriteNumber(
  bytes: Uint8Array,
  start: number,
  end: number,
  rules: RewriteRules,
  out: Uint8Array,
  at: number,
): number {
  let position = start;
  let written = at;
  if (bytes[position] === PLUS || bytes[position] === MINUS) out[written++] = bytes[position++];
  let digits = 0;
  let sinceSeparator = -1;
  while (position < end) {
    const byte = bytes[position];
    if (isDigit(byte)) {
      out[written++] = byte;
      digits++;
      if (sinceSeparator >= 0) sinceSeparator++;
      position++;
      continue;
    }
    const separatorLength = separatorAt(bytes, position, end, rules.thousands);
    if (separatorLength === 0 || digits === 0 || (sinceSeparator >= 0 && sinceSeparator !== 3)) break;
    sinceSeparator = 0;
    position += separatorLength;
  }
  if (digits === 0 || (sinceSeparator >= 0 && sinceSeparator !== 3)) return -1;
  if (position === end) return written;
  if (bytes[position] === rules.decimal) {
    out[written++] = DOT;
    position++;
    while (position < end && isDigit(bytes[position])) out[written++] = bytes[position++];
  }
  if (position < end && (bytes[position] === LOWER_E || bytes[position] === UPPER_E)) {
    while (position < end) out[written++] = bytes[position++];
  }
  return position === end ? written : -1;
}

/** Length of the thousands separator at bytes[position] (a space also as a no-break space), else 0. */
function separatorAt(bytes: Uint8Array, position: number, end: number, thousands: number): number {
  if (thousands < 0) return 0;
  if (bytes[position] === thousands) return 1;
  if (
    thousands === SPACE &&
    bytes[position] === NBSP_LEAD &&
    position + 1 < end &&
    bytes[position + 1] === NBSP_TAIL
  ) {
    return 2;
  }
  return 0;
}

/** A one- or two-digit part ending at a date separator; answers its value and where it ends. */
function datePart(bytes: Uint8Array, position: number, end: number): [number, number] {
  if (position >= end || !isDigit(bytes[position])) return [-1, position];
  let value = bytes[position] - ZERO;
  position++;
  if (position < end && isDigit(bytes[position])) value = value * 10 + bytes[position++] - ZERO;
  return [value, position];
}

function isDateSeparator(byte: number): boolean {
  return byte === SLASH || byte === DOT || byte === MINUS;
}

/**
 * Writes a day-first or month-first date (31/12/2024, 12.31.2024, with a time after it or not)
 * as an ISO date (2024-12-31, the time as written) to out at `at`; answers the end of what was
 * written, or -1 when the value is no such date.
 */
export function rewriteDate(
  bytes: Uint8Array,
  start: number,
  end: number,
  rules: RewriteRules,
  out: Uint8Array,
  at: number,
): number {
  if (rules.dateOrder === 0) return -1;
  const [first, afterFirst] = datePart(bytes, start, end);
  if (first < 0 || !isDateSeparator(bytes[afterFirst])) return -1;
  const separator = bytes[afterFirst];
  const [second, afterSecond] = datePart(bytes, afterFirst + 1, end);
  if (second < 0 || bytes[afterSecond] !== separator || afterSecond + 5 > end) return -1;
  const yearStart = afterSecond + 1;
  for (let index = yearStart; index < yearStart + 4; index++) if (!isDigit(bytes[index])) return -1;
  const rest = yearStart + 4;
  if (rest < end && bytes[rest] !== SPACE && bytes[rest] !== 0x54) return -1;
  const [day, month] = rules.dateOrder === 1 ? [first, second] : [second, first];
  if (month < 1 || month > 12 || day < 1 || day > 31) return -1;
  let written = at;
  for (let index = yearStart; index < rest; index++) out[written++] = bytes[index];
  out[written++] = MINUS;
  out[written++] = ZERO + Math.floor(month / 10);
  out[written++] = ZERO + (month % 10);
  out[written++] = MINUS;
  out[written++] = ZERO + Math.floor(day / 10);
  out[written++] = ZERO + (day % 10);
  for (let index = rest; index < end; index++) out[written++] = bytes[index];
  return written;
}

/** Most bytes a rewrite writes for a value of `length` bytes (a date may grow by two). */
export function rewrittenLength(length: number): number {
  return length + 2;
}

/** The value in canonical form, or as written when it is neither a number nor a date of the dialect. */
export function rewriteValue(value: string, rules: RewriteRules): string {
  const bytes = Buffer.from(value.trim());
  const out = Buffer.alloc(rewrittenLength(bytes.length));
  let end = rewriteDate(bytes, 0, bytes.length, rules, out, 0);
  if (end < 0) end = rewriteNumber(bytes, 0, bytes.length, rules, out, 0);
  return end < 0 ? value : out.toString('utf8', 0, end);
}
