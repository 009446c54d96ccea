import { varint } from './parquet-dictionary';

/**
 * DELTA_BINARY_PACKED, as the Parquet format has it for INT32 and INT64 columns: the first value,
 * then blocks of 128 differences between neighbours, each block as its smallest difference and
 * four miniblocks of 32 differences above it, bit-packed at the width the largest needs. Ids,
 * amounts and customer numbers that rarely repeat (no dictionary) take a few bits each where
 * PLAIN takes 8 bytes, which Snappy hardly shortens.
 *
 * Only for values within 32 bits (every INT32; INT64 ids and amounts as they come), whose
 * differences are exact in a double and, above a block's smallest, fit 31 bits: no BigInt is made
 * per value. Wider values (timestamps in microseconds) stay PLAIN.
 */
const BLOCK_VALUES = 128;
const MINIBLOCKS = 4;
const MINIBLOCK_VALUES = BLOCK_VALUES / MINIBLOCKS;
const TWO_31 = 2 ** 31;

/** A block's differences above its smallest, reused from chunk to chunk. */
export class DeltaEncoder {
  private readonly above = new Int32Array(BLOCK_VALUES);
  private readonly deltas = new Float64Array(BLOCK_VALUES);

  /**
   * The `count` values in `words` (one Int32 each when `wide` is false, else two: low then high
   * word, little-endian) DELTA_BINARY_PACKED, or undefined when a value does not fit 32 bits, a
   * block's differences span 2^31 or more (random values over the whole range: no gain), or the
   * encoding is no smaller than PLAIN.
   */
  encode(words: Int32Array, count: number, wide: boolean): Uint8Array | undefined {
    if (count === 0) return undefined;
    const step = wide ? 2 : 1;
    if (wide)
      for (let index = 0; index < count; index++)
        if (words[index * 2 + 1] !== words[index * 2] >> 31) return undefined;
    const plainBytes = count * (wide ? 8 : 4);
    // At most 4 bytes a difference, plus each block's header (min delta, widths).
    const out = new Uint8Array(32 + Math.ceil(count / BLOCK_VALUES) * (10 + MINIBLOCKS) + count * 4);
    let at = writeVarint(out, 0, BLOCK_VALUES);
    at = writeVarint(out, at, MINIBLOCKS);
    at = writeVarint(out, at, count);
    at = writeZigzag(out, at, words[0]);
    const deltas = this.deltas;
    const above = this.above;
    let previous = words[0];
    for (let blockStart = 1; blockStart < count; blockStart += BLOCK_VALUES) {
      const inBlock = Math.min(BLOCK_VALUES, count - blockStart);
      let minDelta = Infinity;
      for (let index = 0, word = blockStart * step; index < inBlock; index++, word += step) {
        const value = words[word];
        const delta = value - previous;
        previous = value;
        deltas[index] = delta;
        if (delta < minDelta) minDelta = delta;
      }
      for (let index = 0; index < inBlock; index++) {
        const difference = deltas[index] - minDelta;
        if (difference >= TWO_31) return undefined;
        above[index] = difference;
      }
      for (let index = inBlock; index < BLOCK_VALUES; index++) above[index] = 0;
      at = writeZigzag(out, at, minDelta);
      const widthsAt = at;
      for (let miniblock = 0; miniblock < MINIBLOCKS; miniblock++) out[at++] = 0;
      for (let miniblock = 0; miniblock * MINIBLOCK_VALUES < inBlock; miniblock++) {
        const from = miniblock * MINIBLOCK_VALUES;
        let bits = 0;
        for (let index = from; index < from + MINIBLOCK_VALUES; index++) bits |= above[index];
        const width = 32 - Math.clz32(bits);
        out[widthsAt + miniblock] = width;
        // A miniblock is always 32 values wide (the last one's padding is zeros): 4 × width bytes.
        at = packMiniblock(above, from, width, out, at);
      }
    }
    if (at >= plainBytes) return undefined;
    return out.slice(0, at);
  }
}

/**
 * 32 values below 2^31 in `width` bits each, least significant first. A value goes in two pieces
 * when wide, so what waits (at most 7 bits, plus 24) stays within a 32-bit integer.
 */
function packMiniblock(values: Int32Array, from: number, width: number, out: Uint8Array, at: number): number {
  if (width === 0) return at;
  let pending = 0;
  let pendingBits = 0;
  const low = Math.min(width, 16);
  const high = width - low;
  for (let index = from; index < from + MINIBLOCK_VALUES; index++) {
    const value = values[index];
    pending |= (value & 0xffff) << pendingBits;
    pendingBits += low;
    if (high > 0) {
      while (pendingBits >= 8) {
        out[at++] = pending & 0xff;
        pending >>>= 8;
        pendingBits -= 8;
      }
      pending |= (value >>> 16) << pendingBits;
      pendingBits += high;
    }
    while (pendingBits >= 8) {
      out[at++] = pending & 0xff;
      pending >>>= 8;
      pendingBits -= 8;
    }
  }
  return at;
}

function writeVarint(out: Uint8Array, at: number, value: number): number {
  for (const byte of varint(value)) out[at++] = byte;
  return at;
}

/** A signed value (exact in a double, within ±2^33) zigzag-encoded as a ULEB128 varint. */
function writeZigzag(out: Uint8Array, at: number, value: number): number {
  let zigzag = value >= 0 ? value * 2 : -value * 2 - 1;
  while (zigzag >= 0x80) {
    out[at++] = (zigzag % 0x80) | 0x80;
    zigzag = Math.floor(zigzag / 0x80);
  }
  out[at++] = zigzag;
  return at;
}
