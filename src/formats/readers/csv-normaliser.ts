import type { CsvDialect } from './csv-dialect';
import { rewriteDate, rewriteNumber, RewriteRules, rewriteRules } from './value-rewrite';

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/** Which values of a column are rewritten: numbers (decimal comma, thousands), dates (day or month first). */
export interface ColumnRewrites {
  numbers: boolean;
  dates: boolean;
}

/**
 * Rewrites the numbers and dates of a UTF-8 CSV's data records from the file's dialect into the
 * canonical form COPY reads (1.234,5 → 1234.5, 31/12/2024 → 2024-12-31), leaving every other
 * byte as it is: quotes, delimiters and line breaks stay, so line numbers do not move. A value
 * that is no number or date of the dialect stays as written, for the type check to name it.
 *
 * Only whole records leave `push`: the cut-off tail of a chunk waits for the next one. The walk
 * skips runs of plain bytes and only builds output where a value changes.
 */
export class CsvNormaliser {
  private readonly delimiter: number;
  private readonly rules: RewriteRules;
  private readonly numbers: Uint8Array;
  private readonly dates: Uint8Array;
  private readonly plain = new Uint8Array(256).fill(1);
  private tail: Buffer = Buffer.alloc(0);

  constructor(dialect: CsvDialect, columns: ColumnRewrites[]) {
    this.delimiter = dialect.delimiter.charCodeAt(0);
    this.rules = rewriteRules(dialect);
    this.numbers = Uint8Array.from(columns, (column) => (column.numbers ? 1 : 0));
    this.dates = Uint8Array.from(columns, (column) => (column.dates ? 1 : 0));
    for (const special of [this.delimiter, LF, QUOTE]) this.plain[special] = 0;
  }

  /** Whether any value can change at all; when not, the normaliser is not worth running. */
  static rewritesAnything(dialect: CsvDialect, columns: ColumnRewrites[]): boolean {
    return columns.some((column) => column.numbers || column.dates) && rewritesValues(dialect);
  }

  /** The canonical bytes of the records completed by `chunk`. */
  push(chunk: Buffer): Buffer {
    const data = this.tail.length > 0 ? Buffer.concat([this.tail, chunk]) : chunk;
    return this.walk(data, false);
  }

  /** The rest, at the end of the file: the last record may lack its line break. */
  end(): Buffer {
    const data = this.tail;
    this.tail = Buffer.alloc(0);
    return data.length > 0 ? this.walk(data, true) : data;
  }

  private walk(data: Buffer, final: boolean): Buffer {
    const length = data.length;
    // A rewritten date is at most two bytes longer than its shortest form (1/2/2024, nine bytes with its delimiter).
    const out = Buffer.allocUnsafe(length + (length >> 2) + 16);
    const plain = this.plain;
    const delimiter = this.delimiter;
    let written = 0;
    let copied = 0;
    let field = 0;
    let fieldStart = 0;
    let quotes = 0;
    let recordEnd = 0;
    let markCopied = 0;
    let markWritten = 0;
    let index = 0;
    const endField = (end: number): void => {
      const start = fieldStart;
      if (field >= this.numbers.length || end <= start) return;
      if (this.numbers[field] === 0 && this.dates[field] === 0) return;
      let from = start;
      let to = end;
      if (quotes > 0) {
        // Only a value wholly inside one pair of quotes is looked at; anything fancier is text.
        if (quotes !== 2 || data[start] !== QUOTE || data[end - 1] !== QUOTE) return;
        from++;
        to--;
      }
      data.copy(out, written, copied, from);
      const before = written + (from - copied);
      let after = this.dates[field] === 1 ? rewriteDate(data, from, to, this.rules, out, before) : -1;
      if (after < 0 && this.numbers[field] === 1)
        after = rewriteNumber(data, from, to, this.rules, out, before);
      if (after < 0) return;
      written = after;
      copied = to;
    };
    while (index < length) {
      const byte = data[index];
      if (plain[byte] === 1) {
        do index++;
        while (index < length && plain[data[index]] === 1);
        continue;
      }
      if (byte === QUOTE) {
        const closing = data.indexOf(QUOTE, index + 1);
        if (closing < 0) break;
        quotes += 2;
        index = closing + 1;
        continue;
      }
      if (byte === delimiter) {
        endField(index);
        field++;
        quotes = 0;
        fieldStart = index + 1;
      } else {
        endField(index > fieldStart && data[index - 1] === CR ? index - 1 : index);
        recordEnd = index + 1;
        markCopied = copied;
        markWritten = written;
        field = 0;
        quotes = 0;
        fieldStart = recordEnd;
      }
      index++;
    }
    if (final && index >= length) {
      endField(length);
      recordEnd = length;
      markCopied = copied;
      markWritten = written;
    } else if (final) recordEnd = length;
    data.copy(out, markWritten, markCopied, recordEnd);
    written = markWritten + (recordEnd - markCopied);
    this.tail = recordEnd < length ? Buffer.from(data.subarray(recordEnd)) : Buffer.alloc(0);
    return out.subarray(0, written);
  }
}

function rewritesValues(dialect: CsvDialect): boolean {
  return dialect.decimal !== '.' || dialect.thousands !== '' || dialect.dateOrder !== 'ymd';
}
