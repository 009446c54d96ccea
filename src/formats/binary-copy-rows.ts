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
 * chunk boundary is copied and completed by the next chunks: nothing refers to a chunk after
 * `push` returns. The chunks of a long cut row are kept apart until the row can be complete (its
 * lengths say how long it is at least), then joined once, so a wide value costs time linear in
 * its bytes rather than a copy of all of it per chunk.
 */
export class BinaryCopyRows {
  private pending: Buffer | undefined;
  /** Chunks after `pending`, kept apart while the cut row needs more than they hold. */
  private later: Buffer[] = [];
  private laterBytes = 0;
  /** Bytes the pending part needs at least before reading it again can give a row. */
  private neededBytes = 0;
  /** What the last incomplete row needs at least, from its start, and whether that is all of it. */
  private rowNeeds = 0;
  private rowNeedsExactly = false;
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
    if (this.pending && this.pending.length + this.laterBytes + chunk.length < this.neededBytes) {
      this.later.push(Buffer.from(chunk));
      this.laterBytes += chunk.length;
      return;
    }
    if (this.later.length > 0) {
      chunk = Buffer.concat([...this.later, chunk]);
      this.later = [];
      this.laterBytes = 0;
    }
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
        this.neededBytes = HEADER_BYTES;
        return;
      }
      if (!buffer.subarray(0, SIGNATURE.length).equals(SIGNATURE))
        throw new Error('Not a binary COPY answer');
      position = HEADER_BYTES + buffer.readInt32BE(SIGNATURE.length + 4);
      this.headerRead = true;
    }
    while (!this.ended && position < buffer.length) {
      const end = this.readRow(buffer, position);
      if (end === -1) break;
      position = end;
    }
    if (position < buffer.length && !this.ended) {
      buffer = buffer.subarray(position);
      // A copy, so the pending bytes do not keep the whole previous chunk alive.
      this.pending = Buffer.from(buffer);
      this.awaitMore();
    }
  }

  /**
   * How much the pending row must grow before it is read again: all of it when its lengths say
   * so, else at least twice what it holds, so a row of many wide fields is joined a few times, not
   * once per chunk.
   */
  private awaitMore(): void {
    const held = this.pending?.length ?? 0;
    this.neededBytes = this.rowNeedsExactly ? this.rowNeeds : Math.max(this.rowNeeds, 2 * held);
  }

  /**
   * Completes the row the previous chunk cut, joining it with only as much of `chunk` as that
   * row needs (not the whole chunk, which would copy every byte once more). Returns the rest of
   * the chunk, or undefined when the row is still incomplete (then all of it is pending).
   */
  private completePending(chunk: Buffer): Buffer | undefined {
    const pending = this.pending!;
    const first = Math.max(1024, this.neededBytes - pending.length);
    for (let take = Math.min(chunk.length, first); ; take = Math.min(chunk.length, take * 4)) {
      const joined = Buffer.concat([pending, chunk.subarray(0, take)]);
      const end = this.readRow(joined, 0);
      if (end !== -1) {
        this.pending = undefined;
        return chunk.subarray(end - pending.length);
      }
      if (take === chunk.length) {
        this.pending = joined;
        this.awaitMore();
        return undefined;
      }
    }
  }

  /** Whether the trailer came (a COPY cut short never sends it); rows still kept apart are read first. */
  get complete(): boolean {
    if (this.later.length > 0) {
      this.neededBytes = 0;
      this.push(Buffer.alloc(0));
    }
    return this.ended;
  }

  /** The row at `position`: the sink gets it and the offset after it returns, or -1 if it is incomplete. */
  private readRow(buffer: Buffer, position: number): number {
    if (position + 2 > buffer.length) return this.incomplete(2, false);
    const fields = ((buffer[position] << 24) | (buffer[position + 1] << 16)) >> 16;
    if (fields === TRAILER) {
      this.ended = true;
      return position + 2;
    }
    if (fields !== this.columnCount)
      throw new Error(`COPY row has ${fields} fields, expected ${this.columnCount}`);
    let at = position + 2;
    for (let index = 0; index < fields; index++) {
      if (at + 4 > buffer.length) return this.incomplete(at + 4 - position, false);
      // Read by hand: a length per field of every row, and Buffer#readInt32BE checks its offset each time.
      const length = (buffer[at] << 24) | (buffer[at + 1] << 16) | (buffer[at + 2] << 8) | buffer[at + 3];
      at += 4;
      this.starts[index] = at;
      this.lengths[index] = length;
      if (length > 0) at += length;
      if (at > buffer.length) return this.incomplete(at - position, index === fields - 1);
    }
    this.sink.row(buffer, this.starts, this.lengths);
    return at;
  }

  /** Notes what the row being read needs at least (from its start), and answers "incomplete". */
  private incomplete(needs: number, exactly: boolean): -1 {
    this.rowNeeds = needs;
    this.rowNeedsExactly = exactly;
    return -1;
  }
}
