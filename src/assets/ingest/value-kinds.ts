import type { AssetColumn } from '../entities/asset.entity';

/**
 * Bit set of the Postgres types a CSV value could be cast to. A column keeps the AND of its
 * values' sets; what is left at the end picks its type (most specific first).
 */
export const KIND_INTEGER = 1;
export const KIND_NUMERIC = 2;
export const KIND_BOOLEAN = 4;
export const KIND_DATE = 8;
/** A date and time as written, without an offset (a wall clock, zone unknown). */
export const KIND_TIMESTAMP = 16;
/** A date and time with an offset or Z: an instant. */
export const KIND_TIMESTAMPTZ = 32;
export const KIND_ALL =
  KIND_INTEGER | KIND_NUMERIC | KIND_BOOLEAN | KIND_DATE | KIND_TIMESTAMP | KIND_TIMESTAMPTZ;

const SPACE = 0x20;
const PLUS = 0x2b;
const MINUS = 0x2d;
const DOT = 0x2e;
const COLON = 0x3a;
const ZERO = 0x30;
const NINE = 0x39;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
const UPPER_T = 0x54;
const UPPER_Z = 0x5a;

/** bigint holds every 18-digit number; longer integers become numeric. */
const MAX_INTEGER_DIGITS = 18;

function isDigit(byte: number): boolean {
  return byte >= ZERO && byte <= NINE;
}

function twoDigits(bytes: Uint8Array, at: number): number {
  if (!isDigit(bytes[at]) || !isDigit(bytes[at + 1])) return -1;
  return (bytes[at] - ZERO) * 10 + (bytes[at + 1] - ZERO);
}

function numberKinds(bytes: Uint8Array, start: number, end: number): number {
  let position = start;
  if (bytes[position] === PLUS || bytes[position] === MINUS) position++;
  const integerStart = position;
  while (position < end && isDigit(bytes[position])) position++;
  const integerDigits = position - integerStart;
  // Leading zeros (zip codes, ids like 007) would be lost by a numeric type, so they stay text.
  if (integerDigits > 1 && bytes[integerStart] === ZERO) return 0;
  if (position === end) {
    if (integerDigits === 0) return 0;
    return integerDigits <= MAX_INTEGER_DIGITS ? KIND_INTEGER | KIND_NUMERIC : KIND_NUMERIC;
  }
  let fractionDigits = 0;
  if (bytes[position] === DOT) {
    position++;
    const fractionStart = position;
    while (position < end && isDigit(bytes[position])) position++;
    fractionDigits = position - fractionStart;
  }
  if (integerDigits + fractionDigits === 0) return 0;
  if (position < end && (bytes[position] === LOWER_E || bytes[position] === UPPER_E)) {
    position++;
    if (bytes[position] === PLUS || bytes[position] === MINUS) position++;
    const exponentStart = position;
    while (position < end && isDigit(bytes[position])) position++;
    if (position === exponentStart || position - exponentStart > 3) return 0;
  }
  return position === end ? KIND_NUMERIC : 0;
}

/**
 * Whole words only: single letters (t/f, y/n) are far more often codes (sex F/M, grade A–F) than
 * booleans, and reading them as booleans would lose the letter for good.
 */
const BOOLEAN_WORDS = ['true', 'false', 'yes', 'no'].map((word) => Buffer.from(word));

function isBooleanWord(bytes: Uint8Array, start: number, end: number): boolean {
  const length = end - start;
  if (length > 5) return false;
  for (const word of BOOLEAN_WORDS) {
    if (word.length !== length) continue;
    let same = true;
    for (let index = 0; index < length; index++) {
      // ASCII lower-casing: letters only, which is all these words hold.
      if ((bytes[start + index] | 0x20) !== word[index]) {
        same = false;
        break;
      }
    }
    if (same) return true;
  }
  return false;
}

/** YYYY-MM-DD with a plausible month and day (the cast itself catches 2023-02-30). */
function isIsoDate(bytes: Uint8Array, start: number): boolean {
  for (let index = 0; index < 4; index++) if (!isDigit(bytes[start + index])) return false;
  if (bytes[start + 4] !== MINUS || bytes[start + 7] !== MINUS) return false;
  const month = twoDigits(bytes, start + 5);
  const day = twoDigits(bytes, start + 8);
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

/**
 * HH:MM[:SS[.fff]] then optional Z or +HH[:MM] / -HHMM, ending exactly at `end`: KIND_TIMESTAMP
 * without an offset, KIND_TIMESTAMPTZ with one, 0 for anything else.
 */
function timeKinds(bytes: Uint8Array, start: number, end: number): number {
  const hour = twoDigits(bytes, start);
  if (hour < 0 || hour > 23 || bytes[start + 2] !== COLON) return 0;
  const minute = twoDigits(bytes, start + 3);
  if (minute < 0 || minute > 59) return 0;
  let position = start + 5;
  if (bytes[position] === COLON) {
    const second = twoDigits(bytes, position + 1);
    if (second < 0 || second > 60) return 0;
    position += 3;
    if (bytes[position] === DOT) {
      position++;
      const fractionStart = position;
      while (position < end && isDigit(bytes[position])) position++;
      if (position === fractionStart) return 0;
    }
  }
  if (position === end) return KIND_TIMESTAMP;
  if (bytes[position] === UPPER_Z) return position + 1 === end ? KIND_TIMESTAMPTZ : 0;
  if (bytes[position] !== PLUS && bytes[position] !== MINUS) return 0;
  position++;
  const zoneHour = twoDigits(bytes, position);
  if (zoneHour < 0 || zoneHour > 14) return 0;
  position += 2;
  if (position === end) return KIND_TIMESTAMPTZ;
  if (bytes[position] === COLON) position++;
  const zoneMinute = twoDigits(bytes, position);
  return zoneMinute >= 0 && zoneMinute <= 59 && position + 2 === end ? KIND_TIMESTAMPTZ : 0;
}

/**
 * The kinds a non-empty CSV value (bytes[start, end)) fits, without allocating a string. Spaces
 * around the value are allowed because Postgres's input functions ignore them.
 */
export function valueKinds(bytes: Uint8Array, start: number, end: number): number {
  while (start < end && bytes[start] === SPACE) start++;
  while (end > start && bytes[end - 1] === SPACE) end--;
  const length = end - start;
  // Only spaces: not NULL for COPY and not castable either.
  if (length === 0) return 0;
  const first = bytes[start];
  if (isDigit(first) || first === MINUS || first === PLUS || first === DOT) {
    if (length >= 10 && isDigit(first) && bytes[start + 4] === MINUS && isIsoDate(bytes, start)) {
      // A date fits either kind of timestamp column (midnight); naive and offset values mixed
      // share no kind, so such a column stays text, each value as written.
      if (length === 10) return KIND_DATE | KIND_TIMESTAMP | KIND_TIMESTAMPTZ;
      const separator = bytes[start + 10];
      return separator === UPPER_T || separator === SPACE ? timeKinds(bytes, start + 11, end) : 0;
    }
    return numberKinds(bytes, start, end);
  }
  return isBooleanWord(bytes, start, end) ? KIND_BOOLEAN : 0;
}

/** The column type for the kinds every value of a column fitted; `sawValue` false means all NULL. */
export function columnTypeFor(kinds: number, sawValue: boolean): AssetColumn['type'] {
  if (!sawValue) return 'text';
  if (kinds & KIND_INTEGER) return 'integer';
  if (kinds & KIND_NUMERIC) return 'numeric';
  if (kinds & KIND_BOOLEAN) return 'boolean';
  if (kinds & KIND_DATE) return 'date';
  if (kinds & KIND_TIMESTAMP) return 'timestamp';
  if (kinds & KIND_TIMESTAMPTZ) return 'timestamptz';
  return 'text';
}

/**
 * The kinds a value stored in a column of `type` may have (one of them), as the upload judges
 * values; 0 for text, which takes any value. A timestamptz column also takes times without
 * offset, read in UTC: columns typed before such times made timestamp columns hold them.
 */
export function kindNeededBy(type: AssetColumn['type']): number {
  switch (type) {
    case 'integer':
      return KIND_INTEGER;
    case 'numeric':
      return KIND_NUMERIC;
    case 'boolean':
      return KIND_BOOLEAN;
    case 'date':
      return KIND_DATE;
    case 'timestamp':
      return KIND_TIMESTAMP;
    case 'timestamptz':
      return KIND_TIMESTAMP | KIND_TIMESTAMPTZ;
    default:
      return 0;
  }
}

/** The SQL type that stores a column type (integers use bigint so any 18-digit value fits). */
export function sqlTypeFor(type: AssetColumn['type']): string {
  return type === 'integer' ? 'bigint' : type;
}
