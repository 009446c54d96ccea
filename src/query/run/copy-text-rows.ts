import { StringDecoder } from 'node:string_decoder';
import { QUERY_MAX_ROW_BYTES, RowTooLarge } from './row-size-cap';

/** A row's values as PostgreSQL writes them as text, null for NULL. */
export type Row = Array<string | null>;

/** Text of the rows one read hands over at most (past its first row). */
export const READ_CHARS = 4 * 1024 * 1024;

const ESCAPED: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/** One value of COPY's text format: `\N` is NULL, and a backslash escapes the character after it. */
export function copyTextValue(field: string): string | null {
  if (field === '\\N') return null;
  if (!field.includes('\\')) return field;
  return field.replace(/\\(.)/gs, (_, character: string) => ESCAPED[character] ?? character);
}

/**
 * The rows of a `COPY … TO STDOUT` in text format, taken from its chunks only as they are asked
 * for, so a slow reader holds the COPY back. A row is one line (a newline in a value comes
 * escaped) with a tab between values. Each chunk is scanned once, and a row cut by chunk
 * boundaries is kept as its pieces and joined once it ends: the work is linear in the bytes even
 * for a row of many megabytes. A row past QUERY_MAX_ROW_BYTES fails the read.
 */
export class CopyTextRows {
  private readonly decoder = new StringDecoder('utf8');
  private lines: string[] = [];
  private next = 0;
  /** The pieces of the row not ended yet, and its bytes so far. */
  private partial: string[] = [];
  private partialBytes = 0;
  private ended = false;

  constructor(
    private readonly chunks: AsyncIterator<Buffer>,
    private readonly columnCount: number,
  ) {}

  /**
   * Up to `count` more rows, fewer once they hold READ_CHARS (so wide rows are answered a few at a
   * time, never all of a batch at once: forty rows of 15 MB took 600 MB); none at the end.
   */
  async read(count: number): Promise<Row[]> {
    const rows: Row[] = [];
    let chars = 0;
    while (rows.length < count && chars < READ_CHARS) {
      if (this.next < this.lines.length) {
        const line = this.lines[this.next++];
        chars += line.length;
        rows.push(this.parse(line));
        continue;
      }
      if (this.ended) break;
      const chunk = await this.chunks.next();
      if (chunk.done) {
        this.ended = true;
        continue;
      }
      this.take(chunk.value);
    }
    return rows;
  }

  /** Splits a chunk into the rows it ends; what follows its last newline waits for the next one. */
  private take(chunk: Buffer): void {
    const pieces = this.decoder.write(chunk).split('\n');
    const rest = pieces.pop() ?? '';
    this.lines = pieces;
    this.next = 0;
    if (pieces.length > 0 && this.partial.length > 0) {
      const ending = pieces[0];
      this.checkSize(this.partialBytes + Buffer.byteLength(ending));
      this.partial.push(ending);
      pieces[0] = this.partial.join('');
      this.partial = [];
      this.partialBytes = 0;
    }
    // Rows whole in one chunk can only be past the cap in a chunk past it.
    if (chunk.length > QUERY_MAX_ROW_BYTES)
      for (const line of pieces) this.checkSize(Buffer.byteLength(line));
    if (rest) {
      this.partial.push(rest);
      this.partialBytes += Buffer.byteLength(rest);
      this.checkSize(this.partialBytes);
    }
  }

  private checkSize(bytes: number): void {
    if (bytes > QUERY_MAX_ROW_BYTES) throw new RowTooLarge();
  }

  private parse(line: string): Row {
    // A statement without columns still has rows: empty lines.
    return this.columnCount === 0 ? [] : line.split('\t').map(copyTextValue);
  }
}
