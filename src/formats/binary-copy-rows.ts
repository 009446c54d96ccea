/** The 11-byte signature that opens every `COPY … (FORMAT binary)` answer. */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
/** Signature, flags (int32) and header extension length (int32). */
const HEADER_BYTES = SIGNATURE.length + 8;
const TRAILER = -1;

/** Receives each row as slices of one buffer: `lengths[i]` is -1 for NULL. */
export interface BinaryRowSink {
  row(buffer: Buffer, starts: Int32Array, lengths: Int32Array): void;
}

/**
 * Splits the bytes of a binary COPY into rows without copying field values, so the writers read
 * typed values (8-byte integers, dates as day numbers) straight from the wire. A row cut by a
 * chunk boundary is copied and completed by the next chunk: nothing refers to a chunk after
 * `push` returns.
 */
export class BinaryCopyRows {
  private pending: Buffer | undefined;
  private headerRead = false;
  private ended = false;
  private readonly starts: Int32Array;
  private readonly lengths: Int32Array;

  constructor(
    private readonly columnCount: number,
    private readonly sink: BinaryRowSink,
  ) {
    this.starts = new Int32Array(columnCount);
    this.lengths = new Int32Array(columnCount);
  }

  /** Hands every complete row in `chunk` (after what was pending) to the sink. */
  push(chunk: Buffer): void {
    if (this.headerRead && this.pending) {
      const rest = this.completePending(chunk);
      if (rest === undefined) return;
      chunk = rest;
    }
    let buffer = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = undefined;
    let position = 0;
    if (!this.headerRead) {
      if (buffer.length < HEADER_BYTES) {
        // A copy, like every pending part: the caller may reuse its chunk once it is read.
        this.pending = Buffer.from(buffer);
        return;
      }
      if (!buffer.subarray(0, SIGNATURE.length).equals(SIGNATURE))
        throw new Error('Not a binary COPY answer');
      position = HEADER_BYTES + buffer.readInt32BE(SIGNATURE.length + 4);
      this.headerRead = true;
    }
    while (!this.ended && position + 2 <= buffer.length) {
      const end = this.readRow(buffer, position);
      if (end === -1) break;
      position = end;
    }
    if (position < buffer.length && !this.ended) {
      buffer = buffer.subarray(position);
      // A copy, so the pending bytes do not keep the whole previous chunk alive.
      this.pending = Buffer.from(buffer);
    }
  }

  /**
   * Completes the row the previous chunk cut, joining it with only as much of `chunk` as that
   * row needs (not the whole chunk, which would copy every byte once more). Returns the rest of
   * the chunk, or undefined when the row is still incomplete (then all of it is pending).
   */
  private completePending(chunk: Buffer): Buffer | undefined {
    const pending = this.pending!;
    for (let take = Math.min(chunk.length, 1024); ; take = Math.min(chunk.length, take * 4)) {
      const joined = Buffer.concat([pending, chunk.subarray(0, take)]);
      const end = joined.length >= 2 ? this.readRow(joined, 0) : -1;
      if (end !== -1) {
        this.pending = undefined;
        return chunk.subarray(end - pending.length);
      }
      if (take === chunk.length) {
        this.pending = joined;
        return undefined;
      }
    }
  }

  /** Whether the trailer came: a COPY cut short never sends it. */
  get complete(): boolean {
    return this.ended;
  }

  /** The row at `position`: the sink gets it and the offset after it returns, or -1 if it is incomplete. */
  private readRow(buffer: Buffer, position: number): number {
    const fields = ((buffer[position] << 24) | (buffer[position + 1] << 16)) >> 16;
    if (fields === TRAILER) {
      this.ended = true;
      return position + 2;
    }
    if (fields !== this.columnCount)
      throw new Error(`COPY row has ${fields} fields, expected ${this.columnCount}`);
    let at = position + 2;
    for (let index = 0; index < fields; index++) {
      if (at + 4 > buffer.length) return -1;
      // Read by hand: a length per field of every row, and Buffer#readInt32BE checks its offset each time.
      const length = (buffer[at] << 24) | (buffer[at + 1] << 16) | (buffer[at + 2] << 8) | buffer[at + 3];
      at += 4;
      this.starts[index] = at;
      this.lengths[index] = length;
      if (length > 0) at += length;
      if (at > buffer.length) return -1;
    }
    this.sink.row(buffer, this.starts, this.lengths);
    return at;
  }
}
