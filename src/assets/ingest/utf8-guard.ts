import { isUtf8 } from 'node:buffer';

/** Length of the sequence a lead byte starts, or 0 for a byte that cannot start one. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** Offset of the first byte that breaks UTF-8 in `bytes` (slow path, only run after a failure). */
export function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const length = sequenceLength(bytes[index]);
    if (length === 0 || index + length > bytes.length) return index;
    if (!isUtf8(bytes.subarray(index, index + length))) return index;
    index += length;
  }
  return -1;
}

/**
 * Validates a byte stream as UTF-8 chunk by chunk with the native checker. A multi-byte character
 * split across chunks is held back (at most 3 bytes) and checked together with the next chunk.
 */
export class Utf8Guard {
  private pending: Buffer = Buffer.alloc(0);

  /**
   * Checks `chunk`; returns -1 when valid so far, otherwise the offset in `chunk` of the first bad
   * byte (0 when the bad sequence started in the previous chunk).
   */
  check(chunk: Buffer): number {
    let bytes = chunk;
    let shift = 0;
    if (this.pending.length > 0) {
      shift = this.pending.length;
      bytes = Buffer.concat([this.pending, chunk]);
    }
    const cut = this.completeLength(bytes);
    if (!isUtf8(bytes.subarray(0, cut))) {
      return Math.max(0, firstInvalidUtf8Offset(bytes.subarray(0, cut)) - shift);
    }
    this.pending = Buffer.from(bytes.subarray(cut));
    return -1;
  }

  /** -1 when the stream ended on a whole character, otherwise 0 (the tail is cut short). */
  finish(): number {
    return this.pending.length === 0 ? -1 : 0;
  }

  /** Length of the prefix that ends on a character boundary (drops an unfinished last sequence). */
  private completeLength(bytes: Buffer): number {
    const end = bytes.length;
    for (let back = 1; back <= 3 && back <= end; back++) {
      const byte = bytes[end - back];
      if ((byte & 0xc0) !== 0x80) {
        const length = sequenceLength(byte);
        return length > back ? end - back : end;
      }
    }
    return end;
  }
}
