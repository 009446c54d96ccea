import { copyTimestamp, numericSpecial, numericText, writeScaledDecimal } from './pg-binary-values';

/** A binary numeric as Postgres sends it: base-10000 digits, weight, sign and display scale. */
function numeric(digits: number[], weight: number, displayScale: number, sign = 0): Buffer {
  const buffer = Buffer.alloc(8 + digits.length * 2);
  buffer.writeInt16BE(digits.length, 0);
  buffer.writeInt16BE(weight, 2);
  buffer.writeUInt16BE(sign, 4);
  buffer.writeUInt16BE(displayScale, 6);
  digits.forEach((digit, index) => buffer.writeUInt16BE(digit, 8 + index * 2));
  return buffer;
}

function scaled(buffer: Buffer, scale: number): bigint {
  const words = new Uint32Array(4);
  writeScaledDecimal(buffer, 0, scale, words, 0);
  let value = 0n;
  for (let word = 3; word >= 0; word--) value = (value << 32n) | BigInt(words[word]);
  return BigInt.asIntN(128, value);
}

describe('binary numeric values', () => {
  it.each([
    [numeric([12, 5000], 0, 2), '12.50'],
    [numeric([10], -1, 3, 0x4000), '-0.001'],
    [numeric([1234, 5678, 9012, 3456, 7890, 1200], 4, 2), '12345678901234567890.12'],
    [numeric([], 0, 0), '0'],
    [numeric([1], 2, 0), '100000000'],
  ])('prints %# as Postgres does: %s', (buffer, text) => {
    expect(numericText(buffer, 0)).toBe(text);
  });

  it('names NaN and the infinities instead of printing digits', () => {
    expect(numericText(numeric([], 0, 0, 0xc000), 0)).toBeNull();
    expect(numericSpecial(numeric([], 0, 0, 0xc000), 0)).toBe('NaN');
    expect(numericSpecial(numeric([], 0, 0, 0xd000), 0)).toBe('Infinity');
    expect(numericSpecial(numeric([], 0, 0, 0xf000), 0)).toBe('-Infinity');
  });

  it('scales a value to the column scale as a 128-bit two’s complement integer', () => {
    expect(scaled(numeric([12, 5000], 0, 2), 3)).toBe(12500n);
    expect(scaled(numeric([10], -1, 3, 0x4000), 3)).toBe(-1n);
    expect(scaled(numeric([1234, 5678, 9012, 3456, 7890, 1200], 4, 2), 3)).toBe(12345678901234567890120n);
    expect(scaled(numeric([1], 2, 0), 0)).toBe(100000000n);
  });

  it('gives the same words on the fast path (up to 15 digits) as on the BigInt path', () => {
    expect(scaled(numeric([12, 5000], 0, 1, 0x4000), 2)).toBe(-1250n);
    expect(scaled(numeric([9999, 9999, 9999], 2, 0, 0x4000), 3)).toBe(-999999999999000n);
    expect(scaled(numeric([9999, 9999, 9999, 9999], 3, 0, 0x4000), 3)).toBe(-9999999999999999000n);
    expect(scaled(numeric([4294, 9672, 9600], 2, 0), 0)).toBe(429496729600n);
  });
});

describe('binary timestamps', () => {
  it('moves microseconds from 2000-01-01 to 1970-01-01, carrying between the 32-bit words', () => {
    const cases = [0n, -1n, 4294967295n, 817_211_467_758_123n, -946_684_800_000_000n];
    for (const sincePgEpoch of cases) {
      const field = Buffer.alloc(8);
      field.writeBigInt64BE(sincePgEpoch);
      const words = new Int32Array(2);
      expect(copyTimestamp(field, 0, words, 0)).toBe(true);
      expect(new BigInt64Array(words.buffer)[0]).toBe(sincePgEpoch + 946_684_800_000_000n);
    }
  });

  it('reports ±infinity so the writer leaves the value empty', () => {
    const field = Buffer.alloc(8);
    field.writeBigInt64BE(0x7fffffffffffffffn);
    expect(copyTimestamp(field, 0, new Int32Array(2), 0)).toBe(false);
  });
});
