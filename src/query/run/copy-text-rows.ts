import { StringDecoder } from 'node:string_decoder';

/** A row's values as PostgreSQL writes them as text, null for NULL. */
export type Row = Array<string | null>;

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
 * escaped) with a tab between values.
 */
export class CopyTextRows {
  private readonly decoder = new StringDecoder('utf8');
  private lines: string[] = [];
  private next = 0;
  private partial = '';
  private ended = false;

  constructor(
    private readonly chunks: AsyncIterator<Buffer>,
    private readonly columnCount: number,
  ) {}

  /** Up to `count` more rows; fewer (or none) at the end. */
  async read(count: number): Promise<Row[]> {
    const rows: Row[] = [];
    while (rows.length < count) {
      if (this.next < this.lines.length) {
        rows.push(this.parse(this.lines[this.next++]));
        continue;
      }
      if (this.ended) break;
      const chunk = await this.chunks.next();
      if (chunk.done) {
        this.ended = true;
        continue;
      }
      this.lines = (this.partial + this.decoder.write(chunk.value)).split('\n');
      this.partial = this.lines.pop() ?? '';
      this.next = 0;
    }
    return rows;
  }

  private parse(line: string): Row {
    // A statement without columns still has rows: empty lines.
    return this.columnCount === 0 ? [] : line.split('\t').map(copyTextValue);
  }
}
