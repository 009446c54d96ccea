/**
 * Snappy compression (the raw format Parquet pages use), written for speed in JavaScript: the
 * reference algorithm (snappy.cc's CompressFragment: 64 KiB blocks, a 4-byte hash table per
 * block, literals and copies), writing into one buffer sized for the worst case and reading the
 * input four bytes at a time, with no call per output byte: about twice as fast as the Parquet
 * writer library's port, whose output grows byte by byte, for a file within 1% of its size.
 */

/** Snappy looks back at most this far, and compresses its input in blocks of this size. */
const BLOCK_BYTES = 1 << 16;
const MAX_HASH_BITS = 14;
/** Bytes at a block's end left to the final literal, so a 4-byte read never passes its end. */
const INPUT_MARGIN = 15;
const HASH_MULTIPLIER = 0x1e35a7bd;

/** Tag bytes of the format: the element kind in the low two bits. */
const LITERAL = 0;
const COPY_1_BYTE_OFFSET = 1;
const COPY_2_BYTE_OFFSET = 2;

/** A hash table per size, reused from block to block and page to page. */
const tables: Uint16Array[] = [];

/**
 * Where a page is compressed before its bytes are copied out: kept from page to page (grown when
 * a page needs more), rather than a new buffer of the worst case's size per page.
 */
let scratch = new Uint8Array(0);

export function snappyCompress(input: Uint8Array): Uint8Array {
  // The format's bound on the compressed size (snappy.cc MaxCompressedLength).
  const bound = 32 + input.length + Math.floor(input.length / 6);
  if (scratch.length < bound) scratch = new Uint8Array(bound);
  const out = scratch;
  const view = new DataView(input.buffer, input.byteOffset, input.length);
  let op = writeVarint(out, 0, input.length);
  for (let start = 0; start < input.length; start += BLOCK_BYTES) {
    op = compressBlock(input, view, start, Math.min(start + BLOCK_BYTES, input.length), out, op);
  }
  return out.slice(0, op);
}

function writeVarint(out: Uint8Array, op: number, value: number): number {
  while (value >= 0x80) {
    out[op++] = (value & 0x7f) | 0x80;
    value >>>= 7;
  }
  out[op++] = value;
  return op;
}

function hashTable(blockLength: number): { table: Uint16Array; shift: number } {
  let bits = 8;
  while (bits < MAX_HASH_BITS && 1 << bits < blockLength) bits++;
  const table = (tables[bits] ??= new Uint16Array(1 << bits));
  table.fill(0);
  return { table, shift: 32 - bits };
}

function compressBlock(
  input: Uint8Array,
  view: DataView,
  base: number,
  end: number,
  out: Uint8Array,
  op: number,
): number {
  let nextEmit = base;
  if (end - base >= INPUT_MARGIN) {
    const { table, shift } = hashTable(end - base);
    const limit = end - INPUT_MARGIN;
    let ip = base + 1;
    let nextHash = Math.imul(view.getUint32(ip, true), HASH_MULTIPLIER) >>> shift;
    outer: for (;;) {
      // Look for a 4-byte match, skipping faster the longer none is found (incompressible data).
      let skip = 32;
      let nextIp = ip;
      let candidate: number;
      do {
        ip = nextIp;
        const hash = nextHash;
        nextIp = ip + (skip++ >>> 5);
        if (nextIp > limit) break outer;
        nextHash = Math.imul(view.getUint32(nextIp, true), HASH_MULTIPLIER) >>> shift;
        candidate = base + table[hash];
        table[hash] = ip - base;
      } while (view.getUint32(ip, true) !== view.getUint32(candidate, true));

      op = emitLiteral(input, nextEmit, ip - nextEmit, out, op);
      // Copies for as long as the next bytes match again at once.
      let current: number;
      do {
        const matchStart = ip;
        let matched = 4;
        while (
          ip + matched + 4 <= end &&
          view.getUint32(ip + matched, true) === view.getUint32(candidate + matched, true)
        )
          matched += 4;
        while (ip + matched < end && input[ip + matched] === input[candidate + matched]) matched++;
        ip += matched;
        op = emitCopy(matchStart - candidate, matched, out, op);
        nextEmit = ip;
        if (ip >= limit) break outer;
        table[Math.imul(view.getUint32(ip - 1, true), HASH_MULTIPLIER) >>> shift] = ip - 1 - base;
        current = view.getUint32(ip, true);
        const hash = Math.imul(current, HASH_MULTIPLIER) >>> shift;
        candidate = base + table[hash];
        table[hash] = ip - base;
      } while (current === view.getUint32(candidate, true));
      ip++;
      nextHash = Math.imul(view.getUint32(ip, true), HASH_MULTIPLIER) >>> shift;
    }
  }
  if (nextEmit < end) op = emitLiteral(input, nextEmit, end - nextEmit, out, op);
  return op;
}

function emitLiteral(input: Uint8Array, from: number, length: number, out: Uint8Array, op: number): number {
  const n = length - 1;
  if (n < 60) out[op++] = LITERAL | (n << 2);
  else if (n < 0x100) {
    out[op++] = LITERAL | (60 << 2);
    out[op++] = n;
  } else {
    // A block is at most 64 KiB, so two bytes hold any literal's length.
    out[op++] = LITERAL | (61 << 2);
    out[op++] = n & 0xff;
    out[op++] = n >>> 8;
  }
  if (length <= 16) for (let index = 0; index < length; index++) out[op++] = input[from + index];
  else {
    out.set(input.subarray(from, from + length), op);
    op += length;
  }
  return op;
}

function emitCopy(offset: number, length: number, out: Uint8Array, op: number): number {
  while (length >= 68) {
    op = emitCopyUpTo64(offset, 64, out, op);
    length -= 64;
  }
  if (length > 64) {
    op = emitCopyUpTo64(offset, 60, out, op);
    length -= 60;
  }
  return emitCopyUpTo64(offset, length, out, op);
}

function emitCopyUpTo64(offset: number, length: number, out: Uint8Array, op: number): number {
  if (length < 12 && offset < 2048) {
    out[op++] = COPY_1_BYTE_OFFSET | ((length - 4) << 2) | ((offset >>> 8) << 5);
    out[op++] = offset & 0xff;
  } else {
    out[op++] = COPY_2_BYTE_OFFSET | ((length - 1) << 2);
    out[op++] = offset & 0xff;
    out[op++] = offset >>> 8;
  }
  return op;
}
