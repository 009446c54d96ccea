/**
 * Dictionary encoding of one column chunk, as the Parquet format has it: each distinct value once
 * in a PLAIN dictionary page, and the data page's values as indices into it (RLE_DICTIONARY: a
 * byte giving the indices' bit width, then the indices in the RLE/bit-packed hybrid). Categories,
 * small counts, dates and ratings repeat a handful of values, and a few bits each beat the
 * values themselves, before and after compression.
 */

/** A dictionary page's largest size, as pyarrow's writer bounds it: past this, PLAIN. */
export const DICTIONARY_BYTES = 1024 * 1024;
/**
 * Values after which a column that has shown mostly new ones (ids, amounts, free text) gives up
 * the dictionary, rather than hashing the whole chunk for nothing.
 */
const TRIAL_VALUES = 4096;
const TRIAL_DISTINCT_SHARE = 0.5;
/** FNV-1a's 32-bit offset basis and prime. */
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

export interface DictionaryChunk {
  /** Distinct values, for the dictionary page's header. */
  entries: number;
  /** The dictionary page's body: each distinct value once, PLAIN, in order of first use. */
  dictionary: Uint8Array;
  /** The data page's values: bit width, then every value's index (bit-packed groups of eight). */
  indices: Uint8Array;
}

/**
 * Dictionary-encodes a chunk's `count` PLAIN values, each `valueBytes` long or, when that is 0,
 * a BYTE_ARRAY (4-byte length, then its bytes). Answers undefined when a dictionary is not worth
 * it: mostly distinct values, a dictionary past DICTIONARY_BYTES, or no smaller than PLAIN.
 * Scratch arrays are the caller's, reused from chunk to chunk.
 */
export class DictionaryEncoder {
  /** Open addressing: 1 + an entry's number, or 0 for an empty slot. */
  private slots = new Int32Array(0);
  private entryStart = new Int32Array(0);
  private entryEnd = new Int32Array(0);
  private indexOfValue = new Int32Array(0);

  encode(values: Uint8Array, count: number, valueBytes: number): DictionaryChunk | undefined {
    if (count === 0) return undefined;
    this.makeRoom(count);
    const slots = this.slots;
    const mask = slots.length - 1;
    slots.fill(0);
    const view = new DataView(values.buffer, values.byteOffset, values.length);
    // INT32 and INT64 values (dates, counts, decimals) are hashed and compared as whole words:
    // a few times faster than byte by byte, and most dictionaries are theirs.
    const words =
      (valueBytes === 4 || valueBytes === 8) && values.byteOffset % 4 === 0
        ? new Int32Array(values.buffer, values.byteOffset, (count * valueBytes) >> 2)
        : undefined;
    let entries = 0;
    let dictionaryBytes = 0;
    let at = 0;
    for (let index = 0; index < count; index++) {
      const start = at;
      const end = valueBytes > 0 ? start + valueBytes : start + 4 + view.getInt32(start, true);
      at = end;
      let hash = FNV_OFFSET;
      if (words) {
        const word = start >> 2;
        hash = Math.imul(hash ^ words[word], FNV_PRIME);
        if (valueBytes === 8) hash = Math.imul(hash ^ words[word + 1], FNV_PRIME);
        hash ^= hash >>> 15;
      } else for (let byte = start; byte < end; byte++) hash = Math.imul(hash ^ values[byte], FNV_PRIME);
      let slot = hash & mask;
      let entry = -1;
      for (;;) {
        const held = slots[slot];
        if (held === 0) break;
        const heldStart = this.entryStart[held - 1];
        const same = words
          ? words[heldStart >> 2] === words[start >> 2] &&
            (valueBytes === 4 || words[(heldStart >> 2) + 1] === words[(start >> 2) + 1])
          : sameBytes(values, heldStart, this.entryEnd[held - 1], start, end);
        if (same) {
          entry = held - 1;
          break;
        }
        slot = (slot + 1) & mask;
      }
      if (entry === -1) {
        entry = entries++;
        this.entryStart[entry] = start;
        this.entryEnd[entry] = end;
        slots[slot] = entry + 1;
        dictionaryBytes += end - start;
        if (dictionaryBytes > DICTIONARY_BYTES) return undefined;
      }
      this.indexOfValue[index] = entry;
      if (index + 1 === TRIAL_VALUES && entries > TRIAL_VALUES * TRIAL_DISTINCT_SHARE) return undefined;
    }
    const bitWidth = indexBitWidth(entries);
    const indexBytes = 1 + 5 + Math.ceil(count / 8) * bitWidth;
    if (dictionaryBytes + indexBytes >= at) return undefined;
    const dictionary = new Uint8Array(dictionaryBytes);
    let written = 0;
    for (let entry = 0; entry < entries; entry++) {
      dictionary.set(values.subarray(this.entryStart[entry], this.entryEnd[entry]), written);
      written += this.entryEnd[entry] - this.entryStart[entry];
    }
    return { entries, dictionary, indices: packIndices(this.indexOfValue, count, bitWidth) };
  }

  /** Scratch arrays for `count` values: a table at most half full keeps probes short. */
  private makeRoom(count: number): void {
    if (this.indexOfValue.length < count) {
      this.indexOfValue = new Int32Array(count);
      this.entryStart = new Int32Array(count);
      this.entryEnd = new Int32Array(count);
    }
    let size = 16;
    while (size < count * 2) size *= 2;
    if (this.slots.length !== size) this.slots = new Int32Array(size);
  }
}

function sameBytes(
  bytes: Uint8Array,
  start: number,
  end: number,
  otherStart: number,
  otherEnd: number,
): boolean {
  if (end - start !== otherEnd - otherStart) return false;
  for (let offset = 0; offset < end - start; offset++)
    if (bytes[start + offset] !== bytes[otherStart + offset]) return false;
  return true;
}

/**
 * Bits an index takes: enough for the largest, `entries - 1`. At least 1: a bit width of 0 (one
 * entry) is valid, but not every reader has taken it well, and it saves a bit per value at most.
 */
function indexBitWidth(entries: number): number {
  return Math.max(1, 32 - Math.clz32(entries - 1));
}

/**
 * The data page's values: the bit width (one byte), then the indices as one bit-packed run of the
 * RLE/bit-packed hybrid: its header (groups of eight << 1 | 1, as a ULEB128 varint), then the
 * indices' bits, least significant first, the last group padded with zeros (readers take only
 * the page's value count).
 */
function packIndices(indices: Int32Array, count: number, bitWidth: number): Uint8Array {
  const groups = Math.ceil(count / 8);
  const header = varint((groups << 1) | 1);
  const packed = new Uint8Array(1 + header.length + groups * bitWidth);
  packed[0] = bitWidth;
  packed.set(header, 1);
  let at = 1 + header.length;
  // At most 7 bits wait, plus an index of at most 17: within a 32-bit integer.
  let pending = 0;
  let pendingBits = 0;
  for (let index = 0; index < count; index++) {
    pending |= indices[index] << pendingBits;
    pendingBits += bitWidth;
    while (pendingBits >= 8) {
      packed[at++] = pending & 0xff;
      pending >>>= 8;
      pendingBits -= 8;
    }
  }
  if (pendingBits > 0) packed[at] = pending & 0xff;
  return packed;
}

/** An unsigned LEB128 integer, as the hybrid encoding's run headers are written. */
export function varint(value: number): number[] {
  const bytes: number[] = [];
  while (value >= 0x80) {
    bytes.push((value & 0x7f) | 0x80);
    value >>>= 7;
  }
  bytes.push(value);
  return bytes;
}
