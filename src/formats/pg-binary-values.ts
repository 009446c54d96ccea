/** Days from 1970-01-01 to Postgres's epoch, 2000-01-01. */
export const PG_EPOCH_DAYS = 10957;
/** Microseconds from 1970-01-01 to 2000-01-01, split so 32-bit arithmetic can add it. */
const PG_EPOCH_MICROS = 946_684_800_000_000;
const TWO_32 = 4_294_967_296;
const EPOCH_HIGH = Math.floor(PG_EPOCH_MICROS / TWO_32);
const EPOCH_LOW = PG_EPOCH_MICROS % TWO_32;

/** Postgres writes ±infinity dates and timestamps as the extreme values of their integer. */
export const DATE_INFINITY = 0x7fffffff;
export const DATE_MINUS_INFINITY = -0x80000000;
const TIMESTAMP_INFINITY_HIGH = 0x7fffffff;
const TIMESTAMP_MINUS_INFINITY_HIGH = -0x80000000;

const NUMERIC_NEGATIVE = 0x4000;
const NUMERIC_SPECIAL = 0xc000;

/**
 * A big-endian int32 read by hand, as every value of a column comes this way: Buffer's readers
 * check their offsets, which costs more than the read.
 */
export function int32At(buffer: Buffer, at: number): number {
  return (buffer[at] << 24) | (buffer[at + 1] << 16) | (buffer[at + 2] << 8) | buffer[at + 3];
}

/** An 8-byte big-endian integer as its two little-endian 32-bit words, written at `words[index*2]`. */
export function copyInt64(buffer: Buffer, start: number, words: Int32Array, index: number): void {
  words[index * 2] = int32At(buffer, start + 4);
  words[index * 2 + 1] = int32At(buffer, start);
}

/** An int2/int4 field widened to the two words of an int64. */
export function copySmallInt(value: number, words: Int32Array, index: number): void {
  words[index * 2] = value;
  words[index * 2 + 1] = value < 0 ? -1 : 0;
}

/**
 * A timestamp (microseconds since 2000-01-01) moved to the Unix epoch in the two words of an
 * int64, with 32-bit additions so no BigInt is made per value. False for ±infinity.
 */
export function copyTimestamp(buffer: Buffer, start: number, words: Int32Array, index: number): boolean {
  const high = int32At(buffer, start);
  const low = int32At(buffer, start + 4) >>> 0;
  const isInfinite =
    (high === TIMESTAMP_INFINITY_HIGH && low === 0xffffffff) ||
    (high === TIMESTAMP_MINUS_INFINITY_HIGH && low === 0);
  if (isInfinite) return false;
  const sum = low + EPOCH_LOW;
  words[index * 2] = sum | 0;
  words[index * 2 + 1] = high + EPOCH_HIGH + (sum >= TWO_32 ? 1 : 0);
  return true;
}

/** Microseconds since 1970 as a BigInt (for a Date, which keeps milliseconds). */
export function timestampMicros(buffer: Buffer, start: number): bigint | null {
  const micros = buffer.readBigInt64BE(start);
  if (micros === 0x7fffffffffffffffn || micros === -0x8000000000000000n) return null;
  return micros + BigInt(PG_EPOCH_MICROS);
}

interface NumericParts {
  negative: boolean;
  /** Base-10000 digits, the first one weighted 10000^weight. */
  digits: number[];
  weight: number;
  /** Digits after the decimal point as Postgres displays it. */
  displayScale: number;
}

/** The parts of a binary numeric; null for NaN and ±Infinity. */
function numericParts(buffer: Buffer, start: number): NumericParts | null {
  const count = buffer.readInt16BE(start);
  const weight = buffer.readInt16BE(start + 2);
  const sign = buffer.readUInt16BE(start + 4);
  if ((sign & NUMERIC_SPECIAL) === NUMERIC_SPECIAL) return null;
  const displayScale = buffer.readUInt16BE(start + 6);
  const digits = new Array<number>(count);
  for (let index = 0; index < count; index++) digits[index] = buffer.readUInt16BE(start + 8 + index * 2);
  return { negative: sign === NUMERIC_NEGATIVE, digits, weight, displayScale };
}

/** A numeric as the exact text Postgres would print (`12.50`, `-0.001`); null for NaN/Infinity. */
export function numericText(buffer: Buffer, start: number): string | null {
  const parts = numericParts(buffer, start);
  if (!parts) return null;
  const { digits, weight, displayScale } = parts;
  let whole = '';
  for (let index = 0; index <= weight; index++) {
    const group = String(digits[index] ?? 0);
    whole += index === 0 ? group : group.padStart(4, '0');
  }
  let fraction = '';
  for (let index = weight + 1; fraction.length < displayScale; index++) {
    const group = index < 0 ? 0 : (digits[index] ?? 0);
    fraction += String(group).padStart(4, '0');
  }
  fraction = fraction.slice(0, displayScale);
  const text = `${whole || '0'}${displayScale > 0 ? `.${fraction}` : ''}`;
  return parts.negative ? `-${text}` : text;
}

/** NaN, Infinity or -Infinity, as Postgres prints them. */
export function numericSpecial(buffer: Buffer, start: number): string {
  const sign = buffer.readUInt16BE(start + 4);
  if (sign === 0xd000) return 'Infinity';
  if (sign === 0xf000) return '-Infinity';
  return 'NaN';
}

function uint16At(buffer: Buffer, at: number): number {
  return (buffer[at] << 8) | buffer[at + 1];
}

function int16At(buffer: Buffer, at: number): number {
  return (((buffer[at] << 8) | buffer[at + 1]) << 16) >> 16;
}

/** 10^0 … 10^15, exact doubles. */
const POWERS_OF_TEN = Array.from({ length: 16 }, (_, power) => 10 ** power);

/**
 * A numeric times 10^scale as an integer, written as the four little-endian 32-bit words of a
 * 128-bit two's complement decimal (Arrow's Decimal128). `scale` is at least the value's own.
 * Values of up to 15 digits (nearly all) are computed in doubles, exactly; only longer ones
 * take BigInt arithmetic, which costs an allocation per step.
 */
export function writeScaledDecimal(
  buffer: Buffer,
  start: number,
  scale: number,
  words: Uint32Array,
  index: number,
): void {
  // Read by hand, as every value of a numeric column comes this way: Buffer's readers check their offsets.
  const count = int16At(buffer, start);
  const weight = int16At(buffer, start + 2);
  const sign = uint16At(buffer, start + 4);
  if ((sign & NUMERIC_SPECIAL) === NUMERIC_SPECIAL)
    throw new Error('NaN or Infinity cannot be written as a decimal');
  // The digits stand for unscaled × 10000^(weight − count + 1); shift that to 10^-scale.
  const exponent = 4 * (weight - count + 1) + scale;
  const negative = sign === NUMERIC_NEGATIVE;
  if (count <= 3 && exponent >= -12 && exponent <= 15 - 4 * count) {
    let unscaled = 0;
    for (let digit = 0; digit < count; digit++)
      unscaled = unscaled * 10000 + uint16At(buffer, start + 8 + digit * 2);
    // Dropped digits past the scale are zeros, so the division is exact.
    unscaled = exponent >= 0 ? unscaled * POWERS_OF_TEN[exponent] : unscaled / POWERS_OF_TEN[-exponent];
    writeSmallDecimal(negative ? -unscaled : unscaled, words, index);
    return;
  }
  let unscaled = 0n;
  for (let digit = 0; digit < count; digit++)
    unscaled = unscaled * 10000n + BigInt(buffer.readUInt16BE(start + 8 + digit * 2));
  if (exponent >= 0) unscaled *= 10n ** BigInt(exponent);
  else unscaled /= 10n ** BigInt(-exponent);
  if (negative) unscaled = -unscaled;
  const twosComplement = BigInt.asUintN(128, unscaled);
  for (let word = 0; word < 4; word++) {
    words[index * 4 + word] = Number((twosComplement >> BigInt(32 * word)) & 0xffffffffn);
  }
}

/** An integer below 2^53 in magnitude as the four words of a 128-bit two's complement value. */
function writeSmallDecimal(value: number, words: Uint32Array, index: number): void {
  const magnitude = Math.abs(value);
  // Exact for integers below 2^53, and cheaper than `%` on doubles.
  let high = Math.floor(magnitude / TWO_32);
  let low = magnitude - high * TWO_32;
  let upper = 0;
  if (value < 0) {
    // Two's complement: invert every word, then add one, carrying upwards.
    low = (~low >>> 0) + 1;
    high = ~high >>> 0;
    upper = 0xffffffff;
    if (low === TWO_32) {
      low = 0;
      high = (high + 1) >>> 0;
      if (high === 0) upper = 0;
    }
  }
  words[index * 4] = low;
  words[index * 4 + 1] = high;
  words[index * 4 + 2] = upper;
  words[index * 4 + 3] = upper;
}
