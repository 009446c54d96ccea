import { Transform, TransformCallback } from 'node:stream';

const NEWLINE = 0x0a;
const COMMA = 0x2c;
const OPEN = Buffer.from('[');
const CLOSE = Buffer.from(']');

/**
 * Turns newline-terminated JSON documents (one per row, as COPY emits them) into one JSON array,
 * byte for byte: every row terminator becomes a comma except the last one. Safe on raw bytes
 * because JSON text never holds a raw newline and UTF-8 continuation bytes never equal 0x0a.
 */
export class JsonArrayTransform extends Transform {
  private started = false;
  /** The previous chunk's final row terminator, written as a comma once another row follows. */
  private pendingSeparator = false;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (chunk.length === 0) return callback();
    const output = Buffer.allocUnsafe(chunk.length + 2);
    let length = 0;
    if (!this.started) {
      output[length++] = OPEN[0];
      this.started = true;
    }
    if (this.pendingSeparator) {
      output[length++] = COMMA;
      this.pendingSeparator = false;
    }
    const endsWithNewline = chunk[chunk.length - 1] === NEWLINE;
    const body = endsWithNewline ? chunk.subarray(0, chunk.length - 1) : chunk;
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
    callback(null, this.started ? CLOSE : Buffer.concat([OPEN, CLOSE]));
  }
}
