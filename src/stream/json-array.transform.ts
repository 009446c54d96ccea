import { Transform, TransformCallback } from 'node:stream';

const NEWLINE = 0x0a;
const COMMA = 0x2c;

/** What goes around the rows: text before the first one and after the last one. */
export interface JsonRowsEnvelope {
  /** Asked for when the first byte goes out, so it may depend on work done before the rows came. */
  open(): string;
  /**
   * Asked for at the end. `trailer` is the final line when it starts with the transform's trailer
   * mark (without the mark and its newline): a statement's note about the page, not a row.
   */
  close(trailer: string | undefined): string;
}

const ARRAY: JsonRowsEnvelope = { open: () => '[', close: () => ']' };

/**
 * Turns newline-terminated JSON documents (one per row, as COPY emits them) into one comma-separated
 * run inside an envelope, byte for byte: every row terminator becomes a comma except the last one.
 * Safe on raw bytes because JSON text never holds a raw newline and UTF-8 continuation bytes never
 * equal 0x0a. With a trailer mark, a last line starting with that byte (a row always starts with
 * `{`) is held back and handed to the envelope's close instead of being written.
 */
export class JsonRowsTransform extends Transform {
  private started = false;
  /** The previous chunk's final row terminator, written as a comma once another row follows. */
  private pendingSeparator = false;
  private trailer?: Buffer[];
  private readonly trailerStart?: Buffer;

  constructor(
    private readonly envelope: JsonRowsEnvelope,
    private readonly trailerMark?: string,
  ) {
    super();
    if (trailerMark !== undefined) this.trailerStart = Buffer.from(`\n${trailerMark}`);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.trailer) {
      this.trailer.push(chunk);
      return callback();
    }
    const rows = this.rowsOf(chunk);
    if (rows.length === 0) return callback();
    const opening = this.started ? undefined : Buffer.from(this.envelope.open());
    this.started = true;
    const output = Buffer.allocUnsafe(rows.length + (opening?.length ?? 0) + 1);
    let length = opening ? opening.copy(output) : 0;
    if (this.pendingSeparator) {
      output[length++] = COMMA;
      this.pendingSeparator = false;
    }
    const endsWithNewline = rows[rows.length - 1] === NEWLINE;
    const body = endsWithNewline ? rows.subarray(0, rows.length - 1) : rows;
    length += body.copy(output, length);
    let position = output.indexOf(NEWLINE, length - body.length);
    while (position !== -1 && position < length) {
      output[position] = COMMA;
      position = output.indexOf(NEWLINE, position + 1);
    }
    this.pendingSeparator = endsWithNewline;
    callback(null, output.subarray(0, length));
  }

  override _flush(callback: TransformCallback): void {
    const opening = this.started ? '' : this.envelope.open();
    const trailer = this.trailer
      ? Buffer.concat(this.trailer).toString().slice(this.trailerMark!.length).replace(/\n$/, '')
      : undefined;
    callback(null, opening + this.envelope.close(trailer));
  }

  /** The chunk's row bytes; from a trailer line on, the rest is kept as the trailer. */
  private rowsOf(chunk: Buffer): Buffer {
    if (!this.trailerStart) return chunk;
    const atLineStart = this.pendingSeparator || !this.started;
    let at = atLineStart && chunk[0] === this.trailerStart[1] ? 0 : -1;
    if (at === -1) {
      const newline = chunk.indexOf(this.trailerStart);
      if (newline !== -1) at = newline + 1;
    }
    // A trailer mark split from its newline by a chunk boundary is caught by atLineStart next time.
    if (at === -1) return chunk;
    this.trailer = [chunk.subarray(at)];
    return chunk.subarray(0, at);
  }
}

/** Rows as one JSON array. */
export class JsonArrayTransform extends JsonRowsTransform {
  constructor() {
    super(ARRAY);
  }
}
