import type { Delimiter, LineEnding } from './csv-header';
import { MAX_STORED_VALUE_BYTES } from '../../query/run/row-size-cap';
import type { AssetColumn } from '../entities/asset.entity';
import { CsvRejection, invalidUtf8, notCsvText, valueMisfit, valueTooLarge } from './csv-rejection';
import { Utf8Guard } from './utf8-guard';
import { KIND_ALL, kindNeededBy, valueKinds } from './value-kinds';

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const NUL = 0x00;
/** Longer values are text for inference purposes (no number or date is this long). */
const MAX_TYPED_LENGTH = 64;

export interface ScannerOptions {
  delimiter: Delimiter;
  columnCount: number;
  /** The columns' labels as the header names them, for messages about a value. */
  labels: readonly string[];
  lineEnding: LineEnding;
  /** Physical line number of the first data line (after the header). */
  firstLine: number;
  /**
   * The columns of a dataset the file is loaded into: instead of narrowing each column's types,
   * the scanner refuses the first value its column's type cannot hold.
   */
  expected?: ReadonlyArray<Pick<AssetColumn, 'label' | 'type'>>;
}

function countLineFeeds(bytes: Uint8Array, end: number): number {
  let count = 0;
  for (let index = 0; index < end; index++) if (bytes[index] === LF) count++;
  return count;
}

/** Position of the first LF at or after `from`, or the chunk's length when there is none. */
function lineFeedAt(chunk: Buffer, from: number): number {
  const found = chunk.indexOf(LF, from);
  return found >= 0 ? found : chunk.length;
}

/**
 * A field's value as the uploader wrote it: without the quotes around it and with doubled quotes
 * single. `cut`: only the field's start is at hand (a character cut in two there is dropped).
 */
function unquoted(field: Buffer, cut: boolean): string {
  let text = field.toString('utf8');
  if (cut) text = text.replace(/\uFFFD$/, '');
  if (!text.startsWith('"')) return text;
  const closed = !cut && text.length > 1 && text.endsWith('"');
  return text.slice(1, closed ? -1 : undefined).replace(/""/g, '"');
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
  private readonly labels: readonly string[];
  private readonly expected: ScannerOptions['expected'];
  private readonly crlf: boolean;
  private readonly skipBlankLines: boolean;
  private readonly utf8 = new Utf8Guard();
  /** 1 for every byte that cannot end a field, record or quote (all but the delimiter, LF, CR and "). */
  private readonly plainBytes: Uint8Array;

  private line: number;
  private recordStartLine: number;
  private inQuote = false;
  private pendingCr = false;
  private blankCr = false;
  private recordEmpty = true;
  private fieldIndex = 0;
  private fieldStart = 0;
  private fieldQuotes = 0;
  /** Bytes of the current field in earlier chunks, as written (quotes and all). */
  private fieldBytes = 0;
  /** Doubled quotes in the current field: two bytes written, one stored. */
  private fieldEscapes = 0;
  /** The previous chunk ended with a closing quote (a quote opening this one is a doubled one). */
  private closedAtEnd = false;
  /** The part of the current field that arrived in earlier chunks (first MAX_TYPED_LENGTH bytes). */
  private readonly carry = Buffer.alloc(MAX_TYPED_LENGTH);
  private readonly joined = Buffer.alloc(MAX_TYPED_LENGTH * 2);
  private carryActive = false;
  private carryLength = 0;
  private carryOverflow = false;

  constructor(options: ScannerOptions) {
    this.delimiter = options.delimiter.charCodeAt(0);
    this.columnCount = options.columnCount;
    this.labels = options.labels;
    this.crlf = options.lineEnding === 'crlf';
    this.skipBlankLines = options.columnCount > 1;
    this.line = options.firstLine;
    this.recordStartLine = options.firstLine;
    this.expected = options.expected;
    this.kinds = new Uint8Array(options.columnCount).fill(KIND_ALL);
    // A column of a dataset keeps the one kind its type needs; text columns need no look at all.
    options.expected?.forEach((column, index) => (this.kinds[index] = kindNeededBy(column.type)));
    this.sawValue = new Uint8Array(options.columnCount);
    this.plainBytes = new Uint8Array(256).fill(1);
    for (const special of [this.delimiter, LF, CR, QUOTE]) this.plainBytes[special] = 0;
  }

  /**
   * Scans one chunk and hands the bytes COPY should receive to `forward` (usually the whole chunk).
   * The byte loop runs over every byte of the upload, so the state it touches per byte lives in
   * locals, and the stretches where nothing can happen (the inside of a quoted value, the inside
   * of an unquoted one) are skipped in tight inner loops.
   */
  feed(chunk: Buffer, forward: (part: Buffer) => void): void {
    const badByte = this.utf8.check(chunk);
    if (badByte >= 0) {
      if (chunk.indexOf(NUL) >= 0) throw notCsvText();
      throw invalidUtf8(this.line + countLineFeeds(chunk, badByte));
    }
    // NUL is valid UTF-8 but never CSV text; one native search keeps it out of the byte loop.
    if (chunk.indexOf(NUL) >= 0) throw notCsvText();
    const delimiter = this.delimiter;
    const plain = this.plainBytes;
    const length = chunk.length;
    let segmentStart = 0;
    let line = this.line;
    let inQuote = this.inQuote;
    let pendingCr = this.pendingCr;
    let recordEmpty = this.recordEmpty;
    /** The next line feed at or after the quoted stretch being skipped (length: none left). */
    let nextLf = -1;
    /** Where the last quoted stretch closed: a quote right after it is a doubled (literal) one. */
    let closedAt = this.closedAtEnd ? -1 : -2;
    this.fieldStart = 0;
    let index = 0;
    while (index < length) {
      const byte = chunk[index];
      if (inQuote) {
        // Inside quotes only the closing quote ends anything; line feeds still count lines. Both
        // are found with native searches: quoted values are where long texts live.
        const quote = chunk.indexOf(QUOTE, index);
        const closed = quote >= 0 ? quote : length;
        if (nextLf < index) nextLf = lineFeedAt(chunk, index);
        while (nextLf < closed) {
          line++;
          nextLf = lineFeedAt(chunk, nextLf + 1);
        }
        if (quote < 0) break;
        inQuote = false;
        this.fieldQuotes++;
        closedAt = quote;
        index = quote + 1;
        continue;
      }
      if (pendingCr) {
        pendingCr = false;
        if (byte !== LF) throw this.bareCarriageReturn(line);
        if (this.blankCr) {
          this.blankCr = false;
          segmentStart = index + 1;
        } else {
          this.endRecord();
          recordEmpty = true;
        }
        line++;
        this.recordStartLine = line;
        this.fieldStart = index + 1;
        index++;
        continue;
      }
      if (plain[byte] === 1) {
        recordEmpty = false;
        do index++;
        while (index < length && plain[chunk[index]] === 1);
        continue;
      }
      if (byte === delimiter) {
        this.endField(chunk, index);
        this.fieldIndex++;
        this.fieldStart = index + 1;
        recordEmpty = false;
      } else if (byte === LF) {
        if (this.crlf) throw this.mixedLineEndings(line);
        if (recordEmpty && this.skipBlankLines) {
          if (index > segmentStart) forward(chunk.subarray(segmentStart, index));
          segmentStart = index + 1;
        } else {
          this.endField(chunk, index);
          this.endRecord();
          recordEmpty = true;
        }
        line++;
        this.recordStartLine = line;
        this.fieldStart = index + 1;
      } else if (byte === CR) {
        if (!this.crlf) throw this.bareCarriageReturn(line);
        pendingCr = true;
        if (recordEmpty && this.skipBlankLines) {
          if (index > segmentStart) forward(chunk.subarray(segmentStart, index));
          segmentStart = index + 1;
          this.blankCr = true;
        } else this.endField(chunk, index);
      } else {
        // The only other byte that is not plain: a quote.
        if (index === closedAt + 1) this.fieldEscapes++;
        inQuote = true;
        this.fieldQuotes++;
        recordEmpty = false;
      }
      index++;
    }
    this.line = line;
    this.inQuote = inQuote;
    this.pendingCr = pendingCr;
    this.recordEmpty = recordEmpty;
    this.closedAtEnd = closedAt === length - 1;
    if (!pendingCr) {
      // A value is refused as soon as it passes the cap, not when (if ever) it ends.
      this.fieldBytes += length - this.fieldStart;
      this.checkValueSize();
      this.carryOver(chunk, this.fieldStart, length);
    }
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
      this.recordEmpty = true;
    }
  }

  private carryOver(chunk: Buffer, from: number, to: number): void {
    this.carryActive = true;
    const column = this.fieldIndex;
    if (column >= this.columnCount || this.kinds[column] === 0 || this.carryOverflow) return;
    const room = MAX_TYPED_LENGTH - this.carryLength;
    if (to - from > room) {
      // Too long to type; its start is kept for a message that quotes it.
      chunk.copy(this.carry, this.carryLength, from, from + room);
      this.carryLength = MAX_TYPED_LENGTH;
      this.carryOverflow = true;
      return;
    }
    chunk.copy(this.carry, this.carryLength, from, to);
    this.carryLength += to - from;
  }

  /** Narrows the column's kinds with the field that ends at chunk[end] (chunk null: at end of file). */
  private endField(chunk: Buffer | null, end: number): void {
    if (chunk) this.fieldBytes += end - this.fieldStart;
    this.checkValueSize();
    this.fieldBytes = 0;
    this.fieldEscapes = 0;
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
        // Too long to be anything but text; only its start is at hand.
        const parts: Uint8Array[] = [this.carry.subarray(0, this.carryLength)];
        if (chunk && !this.carryOverflow) parts.push(chunk.subarray(0, MAX_TYPED_LENGTH - this.carryLength));
        const head = Buffer.concat(parts);
        this.resetCarry();
        this.narrow(column, 0, head, 0, head.length, true);
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
        this.narrow(column, 0, bytes, start, stop, false);
        return;
      }
      start++;
      stop--;
    }
    // Empty says nothing of the type: NULL unquoted, and quoted an empty string, which only a text
    // column keeps (COPY runs with FORCE_NULL on the typed ones).
    if (stop <= start) return;
    const tooLong = stop - start > MAX_TYPED_LENGTH;
    this.narrow(column, tooLong ? 0 : valueKinds(bytes, start, stop), bytes, start, stop, false);
    if (!tooLong) this.sawValue[column] = 1;
  }

  /**
   * Keeps the kinds the column's values so far and this one (bytes[start, stop)) share; loading
   * into a dataset's columns, a value of no kind its column takes is refused on the spot.
   */
  private narrow(
    column: number,
    kinds: number,
    bytes: Uint8Array,
    start: number,
    stop: number,
    cut: boolean,
  ): void {
    const left = this.kinds[column] & kinds;
    if (!this.expected) {
      this.kinds[column] = left;
      return;
    }
    // A dataset's column keeps every kind its type takes: each value is judged on its own.
    if (left === 0) {
      const raw = Buffer.from(bytes.buffer, bytes.byteOffset + start, stop - start);
      throw valueMisfit(this.expected[column], this.recordStartLine, unquoted(raw, cut), cut);
    }
  }

  /**
   * Refuses the current field once its value passes MAX_STORED_VALUE_BYTES: the bytes written,
   * less its quotes, plus one for each doubled quote (COPY stores exactly that). Only counts are
   * kept, so a value of any size is measured without being held.
   */
  private checkValueSize(): void {
    const valueBytes = this.fieldBytes - this.fieldQuotes + this.fieldEscapes;
    if (valueBytes <= MAX_STORED_VALUE_BYTES) return;
    const column = this.fieldIndex;
    throw valueTooLarge(this.labels[column] || `Column ${column + 1}`, this.recordStartLine);
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
  }

  private bareCarriageReturn(line: number): CsvRejection {
    return new CsvRejection(
      `Line ${line} has a carriage return outside quotes. Use one line-ending style (LF or CRLF) throughout the file.`,
    );
  }

  private mixedLineEndings(line: number): CsvRejection {
    return new CsvRejection(
      `Line ${line} ends with LF although the file uses CRLF line endings. Use one line-ending style throughout the file.`,
    );
  }
}
