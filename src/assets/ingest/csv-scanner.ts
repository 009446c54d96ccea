import type { Delimiter, LineEnding } from './csv-header';
import { CsvRejection, invalidUtf8, notCsvText } from './csv-rejection';
import { Utf8Guard } from './utf8-guard';
import { KIND_ALL, valueKinds } from './value-kinds';

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const NUL = 0x00;
/** Longer values are text for inference purposes (no number or date is this long). */
const MAX_TYPED_LENGTH = 64;

export interface ScannerOptions {
  delimiter: Delimiter;
  columnCount: number;
  lineEnding: LineEnding;
  /** Physical line number of the first data line (after the header). */
  firstLine: number;
}

function countLineFeeds(bytes: Uint8Array, end: number): number {
  let count = 0;
  for (let index = 0; index < end; index++) if (bytes[index] === LF) count++;
  return count;
}

/**
 * Walks the raw CSV bytes once, in step with what Postgres's COPY parser will see, without
 * building strings: it counts records and fields (ragged rows), checks UTF-8 and line endings,
 * and narrows each column's possible types. Blank lines are dropped from what is forwarded
 * (COPY would reject them) unless the file has a single column, where they mean NULL.
 */
export class CsvScanner {
  /** Data records seen so far. */
  rows = 0;
  /** Per column: the kinds (value-kinds bits) all its values fitted so far. */
  readonly kinds: Uint8Array;
  /** Per column: 1 once a non-NULL value was seen. */
  readonly sawValue: Uint8Array;

  private readonly delimiter: number;
  private readonly columnCount: number;
  private readonly crlf: boolean;
  private readonly skipBlankLines: boolean;
  private readonly utf8 = new Utf8Guard();

  private line: number;
  private recordStartLine: number;
  private inQuote = false;
  private pendingCr = false;
  private blankCr = false;
  private recordEmpty = true;
  private fieldIndex = 0;
  private fieldStart = 0;
  private fieldQuotes = 0;
  /** The part of the current field that arrived in earlier chunks (first MAX_TYPED_LENGTH bytes). */
  private readonly carry = Buffer.alloc(MAX_TYPED_LENGTH);
  private readonly joined = Buffer.alloc(MAX_TYPED_LENGTH * 2);
  private carryActive = false;
  private carryLength = 0;
  private carryOverflow = false;

  constructor(options: ScannerOptions) {
    this.delimiter = options.delimiter.charCodeAt(0);
    this.columnCount = options.columnCount;
    this.crlf = options.lineEnding === 'crlf';
    this.skipBlankLines = options.columnCount > 1;
    this.line = options.firstLine;
    this.recordStartLine = options.firstLine;
    this.kinds = new Uint8Array(options.columnCount).fill(KIND_ALL);
    this.sawValue = new Uint8Array(options.columnCount);
  }

  /** Scans one chunk and hands the bytes COPY should receive to `forward` (usually the whole chunk). */
  feed(chunk: Buffer, forward: (part: Buffer) => void): void {
    const badByte = this.utf8.check(chunk);
    if (badByte >= 0) {
      if (chunk.indexOf(NUL) >= 0) throw notCsvText();
      throw invalidUtf8(this.line + countLineFeeds(chunk, badByte));
    }
    const delimiter = this.delimiter;
    const length = chunk.length;
    let segmentStart = 0;
    this.fieldStart = 0;
    for (let index = 0; index < length; index++) {
      const byte = chunk[index];
      if (this.inQuote) {
        if (byte === QUOTE) {
          this.inQuote = false;
          this.fieldQuotes++;
        } else if (byte === LF) this.line++;
        else if (byte === NUL) throw notCsvText();
        continue;
      }
      if (this.pendingCr) {
        this.pendingCr = false;
        if (byte !== LF) throw this.bareCarriageReturn();
        if (this.blankCr) {
          this.blankCr = false;
          segmentStart = index + 1;
        } else this.endRecord();
        this.line++;
        this.recordStartLine = this.line;
        this.fieldStart = index + 1;
        continue;
      }
      if (byte === delimiter) {
        this.endField(chunk, index);
        this.fieldIndex++;
        this.fieldStart = index + 1;
        this.recordEmpty = false;
      } else if (byte === LF) {
        if (this.crlf) throw this.mixedLineEndings();
        if (this.recordEmpty && this.skipBlankLines) {
          if (index > segmentStart) forward(chunk.subarray(segmentStart, index));
          segmentStart = index + 1;
        } else {
          this.endField(chunk, index);
          this.endRecord();
        }
        this.line++;
        this.recordStartLine = this.line;
        this.fieldStart = index + 1;
      } else if (byte === CR) {
        if (!this.crlf) throw this.bareCarriageReturn();
        this.pendingCr = true;
        if (this.recordEmpty && this.skipBlankLines) {
          if (index > segmentStart) forward(chunk.subarray(segmentStart, index));
          segmentStart = index + 1;
          this.blankCr = true;
        } else this.endField(chunk, index);
      } else if (byte === QUOTE) {
        this.inQuote = true;
        this.fieldQuotes++;
        this.recordEmpty = false;
      } else if (byte === NUL) throw notCsvText();
      else this.recordEmpty = false;
    }
    if (!this.pendingCr) this.carryOver(chunk, this.fieldStart, length);
    if (segmentStart < length) forward(segmentStart === 0 ? chunk : chunk.subarray(segmentStart));
  }

  /** Checks the end of the file: an open quote or a cut-off character is an error; a last line without line break is a record. */
  finish(): void {
    if (this.inQuote) {
      throw new CsvRejection(
        `Line ${this.recordStartLine}: a quoted field is never closed (missing closing quote).`,
      );
    }
    if (this.utf8.finish() >= 0) throw invalidUtf8(this.line);
    if (this.pendingCr) {
      if (!this.blankCr) this.endRecord();
      return;
    }
    if (!this.recordEmpty) {
      this.endField(null, 0);
      this.endRecord();
    }
  }

  private carryOver(chunk: Buffer, from: number, to: number): void {
    this.carryActive = true;
    const column = this.fieldIndex;
    if (column >= this.columnCount || this.kinds[column] === 0 || this.carryOverflow) return;
    const room = MAX_TYPED_LENGTH - this.carryLength;
    if (to - from > room) {
      this.carryOverflow = true;
      return;
    }
    chunk.copy(this.carry, this.carryLength, from, to);
    this.carryLength += to - from;
  }

  /** Narrows the column's kinds with the field that ends at chunk[end] (chunk null: at end of file). */
  private endField(chunk: Buffer | null, end: number): void {
    const column = this.fieldIndex;
    const quotes = this.fieldQuotes;
    this.fieldQuotes = 0;
    if (column >= this.columnCount || this.kinds[column] === 0) {
      this.resetCarry();
      return;
    }
    let bytes: Uint8Array;
    let start: number;
    let stop: number;
    if (this.carryActive) {
      const tail = chunk ? end : 0;
      if (this.carryOverflow || this.carryLength + tail > MAX_TYPED_LENGTH) {
        this.kinds[column] = 0;
        this.resetCarry();
        return;
      }
      this.carry.copy(this.joined, 0, 0, this.carryLength);
      if (chunk) chunk.copy(this.joined, this.carryLength, 0, tail);
      bytes = this.joined;
      start = 0;
      stop = this.carryLength + tail;
      this.resetCarry();
    } else {
      bytes = chunk as Buffer;
      start = this.fieldStart;
      stop = end;
    }
    if (quotes > 0) {
      // Only a value wholly inside one pair of quotes can be typed; anything fancier stays text.
      if (quotes !== 2 || bytes[start] !== QUOTE || bytes[stop - 1] !== QUOTE) {
        this.kinds[column] = 0;
        return;
      }
      start++;
      stop--;
    }
    // Empty (quoted or not) is NULL: COPY runs with FORCE_NULL on every column.
    if (stop <= start) return;
    if (stop - start > MAX_TYPED_LENGTH) {
      this.kinds[column] = 0;
      return;
    }
    this.kinds[column] &= valueKinds(bytes, start, stop);
    this.sawValue[column] = 1;
  }

  private resetCarry(): void {
    this.carryActive = false;
    this.carryLength = 0;
    this.carryOverflow = false;
  }

  private endRecord(): void {
    const fields = this.fieldIndex + 1;
    if (fields !== this.columnCount) {
      throw new CsvRejection(
        `Line ${this.recordStartLine} has ${fields} ${fields === 1 ? 'field' : 'fields'}, but the header has ${this.columnCount} columns.`,
      );
    }
    this.rows++;
    this.fieldIndex = 0;
    this.recordEmpty = true;
  }

  private bareCarriageReturn(): CsvRejection {
    return new CsvRejection(
      `Line ${this.line} has a carriage return outside quotes. Use one line-ending style (LF or CRLF) throughout the file.`,
    );
  }

  private mixedLineEndings(): CsvRejection {
    return new CsvRejection(
      `Line ${this.line} ends with LF although the file uses CRLF line endings. Use one line-ending style throughout the file.`,
    );
  }
}
