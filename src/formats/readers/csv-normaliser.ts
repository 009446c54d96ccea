import type { CsvDialect } from './csv-dialect';
import { rewriteDate, rewriteNumber, RewriteRules, rewriteRules } from './value-rewrite';

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
/** Longer values are no number or date anyone writes; they stay as written. */
const MAX_REWRITTEN_LENGTH = 64;

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
 * Only whole fields leave `push`: the cut-off field at the end of a chunk waits for the next one,
 * unless it is already too long to be rewritten; then it passes as it arrives, so a huge value is
 * never held (the scanner after the normaliser refuses it at the cap). The walk skips runs of
 * plain bytes and only builds output where a value changes.
 */
export class CsvNormaliser {
  private readonly delimiter: number;
  private readonly rules: RewriteRules;
  private readonly numbers: Uint8Array;
  private readonly dates: Uint8Array;
  private readonly plain = new Uint8Array(256).fill(1);
  private tail: Buffer = Buffer.alloc(0);
  /** Index in its record of the field the next byte belongs to. */
  private field = 0;
  /** The field under way is too long to rewrite and passes as it arrives; whether inside quotes. */
  private passing = false;
  private passingInQuote = false;
  private readonly scratch = Buffer.alloc(MAX_REWRITTEN_LENGTH + 2);

  constructor(dialect: CsvDialect, columns: ColumnRewrites[]) {
    this.delimiter = dialect.delimiter.charCodeAt(0);
    this.rules = rewriteRules(dialect);
    this.numbers = Uint8Array.from(columns, (column) => (column.numbers ? 1 : 0));
    this.dates = Uint8Array.from(columns, (column) => (column.dates ? 1 : 0));
    for (const special of [this.delimiter, LF, QUOTE]) this.plain[special] = 0;
    // The bytes that make a value worth rewriting: its decimal mark, separators of thousands and dates.
    const marks = [
      dialect.decimal,
      dialect.thousands,
      ...(dialect.dateOrder === 'ymd' ? [] : ['/', '.', '-']),
    ];
    for (const mark of marks) if (mark !== '') this.plain[mark.charCodeAt(0)] = 0;
    if (dialect.thousands === ' ') this.plain[0xc2] = 0;
  }

  /** Whether any value can change at all; when not, the normaliser is not worth running. */
  static rewritesAnything(dialect: CsvDialect, columns: ColumnRewrites[]): boolean {
    return columns.some((column) => column.numbers || column.dates) && rewritesValues(dialect);
  }

  /** The canonical bytes of the records completed by `chunk`. */
  push(chunk: Buffer): Buffer {
    if (this.passing) {
      const end = this.endOfPassingField(chunk);
      if (end < 0) return chunk;
      this.passing = false;
      const rest = this.walk(chunk.subarray(end), false);
      return end === 0 ? rest : Buffer.concat([chunk.subarray(0, end), rest]);
    }
    const data = this.tail.length > 0 ? Buffer.concat([this.tail, chunk]) : chunk;
    return this.walk(data, false);
  }

  /**
   * Where the passing field ends in `chunk` (at its delimiter or line feed, left for the walk), or
   * -1 when it goes on past the chunk. Keeps track of its quotes on the way.
   */
  private endOfPassingField(chunk: Buffer): number {
    let index = 0;
    while (index < chunk.length) {
      if (this.passingInQuote) {
        const closing = chunk.indexOf(QUOTE, index);
        if (closing < 0) return -1;
        this.passingInQuote = false;
        index = closing + 1;
        continue;
      }
      const byte = chunk[index];
      if (byte === this.delimiter || byte === LF) return index;
      if (byte === QUOTE) this.passingInQuote = true;
      index++;
    }
    return -1;
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
    let field = this.field;
    let fieldStart = 0;
    let inQuote = false;
    let quotes = 0;
    let marked = false;
    let fieldsEnd = 0;
    let markCopied = 0;
    let markWritten = 0;
    let index = 0;
    let atEnd = false;
    while (index < length || (final && !atEnd)) {
      let fieldEnd: number;
      let endsRecord = false;
      if (index >= length) {
        // The last record of the file, without a line break after it.
        atEnd = true;
        fieldEnd = length;
        endsRecord = true;
      } else {
        const byte = data[index];
        if (plain[byte] === 1) {
          do index++;
          while (index < length && plain[data[index]] === 1);
          continue;
        }
        if (byte === QUOTE) {
          const closing = data.indexOf(QUOTE, index + 1);
          if (closing < 0) {
            inQuote = true;
            break;
          }
          // Marks inside quotes count too: "1.234,5" is a number in a comma-separated file.
          marked = true;
          quotes += 2;
          index = closing + 1;
          continue;
        }
        if (byte === delimiter) fieldEnd = index;
        else if (byte === LF) {
          fieldEnd = index > fieldStart && data[index - 1] === CR ? index - 1 : index;
          endsRecord = true;
        } else {
          // A byte a rewrite looks for (a decimal mark, a separator): the field is worth a look.
          marked = true;
          index++;
          continue;
        }
      }
      if (marked) {
        const rewritten = this.rewriteField(data, fieldStart, fieldEnd, quotes, field);
        if (rewritten >= 0) {
          const from = quotes > 0 ? fieldStart + 1 : fieldStart;
          data.copy(out, written, copied, from);
          written += from - copied;
          this.scratch.copy(out, written, 0, rewritten);
          written += rewritten;
          copied = quotes > 0 ? fieldEnd - 1 : fieldEnd;
        }
      }
      marked = false;
      quotes = 0;
      // Everything up to here is final: what follows starts a field of its own.
      fieldsEnd = atEnd ? length : index + 1;
      markCopied = copied;
      markWritten = written;
      if (endsRecord) field = 0;
      else field++;
      index++;
      fieldStart = index;
    }
    this.field = field;
    // A field too long to be rewritten goes out as far as it has come; only its quotes are followed.
    const passing = !final && length - fieldsEnd > MAX_REWRITTEN_LENGTH + 2;
    if (final || passing) fieldsEnd = length;
    data.copy(out, markWritten, markCopied, fieldsEnd);
    written = markWritten + (fieldsEnd - markCopied);
    this.tail = fieldsEnd < length ? Buffer.from(data.subarray(fieldsEnd)) : Buffer.alloc(0);
    if (passing) {
      this.passing = true;
      // Inside quotes unless the walk came to the end of the chunk outside them.
      this.passingInQuote = inQuote;
    }
    return out.subarray(0, written);
  }

  /**
   * The canonical form of the field data[start, end) written to `scratch`: its length, or -1 when
   * the field stays as written (no column to rewrite, no number or date of the dialect).
   */
  private rewriteField(data: Buffer, start: number, end: number, quotes: number, field: number): number {
    if (field >= this.numbers.length || (this.numbers[field] === 0 && this.dates[field] === 0)) return -1;
    if (quotes > 0) {
      // Only a value wholly inside one pair of quotes is looked at; anything fancier is text.
      if (quotes !== 2 || end - start < 2 || data[start] !== QUOTE || data[end - 1] !== QUOTE) return -1;
      start++;
      end--;
    }
    if (end <= start || end - start > MAX_REWRITTEN_LENGTH) return -1;
    let after = this.dates[field] === 1 ? rewriteDate(data, start, end, this.rules, this.scratch, 0) : -1;
    if (after < 0 && this.numbers[field] === 1)
      after = rewriteNumber(data, start, end, this.rules, this.scratch, 0);
    return after;
  }
}

function rewritesValues(dialect: CsvDialect): boolean {
  return dialect.decimal !== '.' || dialect.thousands !== '' || dialect.dateOrder !== 'ymd';
}
