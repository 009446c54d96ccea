import type { writeMetadata } from 'hyparquet-writer/src/metadata.js';
import { ExportColumn, valueKind, ValueKind } from '../binary-columns';
import {
  copyInt64,
  copySmallInt,
  copyTimestamp,
  DATE_INFINITY,
  DATE_MINUS_INFINITY,
  int32At,
  numericSpecial,
  numericText,
  PG_EPOCH_DAYS,
  writeScaledDecimal,
} from '../pg-binary-values';
import { DeltaEncoder } from './parquet-delta';
import { DictionaryEncoder, varint } from './parquet-dictionary';

/** The file metadata the writer library serialises, and a column's entry in its schema. */
export type FileMetaData = Parameters<typeof writeMetadata>[1];
export type SchemaElement = FileMetaData['schema'][number];

/**
 * The encoders' scratch arrays (a hash table and three arrays of a group's size: about 1.3 MB),
 * one set per thread rather than per column and file: a thread encodes one page at a time, and
 * what they answer is in buffers of its own.
 */
const sharedDictionaryEncoder = new DictionaryEncoder();
const sharedDeltaEncoder = new DeltaEncoder();

/** Widest decimal kept in an INT64 (Parquet allows it up to 18 digits); wider ones take 16 bytes. */
const INT64_DECIMAL_DIGITS = 18;
const WIDE_DECIMAL_BYTES = 16;
/** A text page's first buffer, before any group has shown how much its text takes. */
const MIN_TEXT_BYTES = 64 * 1024;
/** Values up to this length are copied by hand rather than by a native copy. */
const SHORT_VALUE_BYTES = 256;

/** How a column is laid out in the file: its schema element and the bytes each value takes. */
function layout(column: ExportColumn, kind: ValueKind): { element: SchemaElement; valueBytes: number } {
  const name = column.label;
  const optional = { name, repetition_type: 'OPTIONAL' as const };
  switch (kind) {
    case 'integer':
      return { element: { ...optional, type: 'INT64' }, valueBytes: 8 };
    case 'decimal': {
      const { precision, scale } = column.decimal!;
      const decimal = {
        ...optional,
        converted_type: 'DECIMAL' as const,
        logical_type: { type: 'DECIMAL' as const, precision, scale },
        precision,
        scale,
      };
      if (precision <= INT64_DECIMAL_DIGITS) return { element: { ...decimal, type: 'INT64' }, valueBytes: 8 };
      const element: SchemaElement = {
        ...decimal,
        type: 'FIXED_LEN_BYTE_ARRAY',
        type_length: WIDE_DECIMAL_BYTES,
      };
      return { element, valueBytes: WIDE_DECIMAL_BYTES };
    }
    case 'float':
      return { element: { ...optional, type: 'DOUBLE' }, valueBytes: 8 };
    case 'boolean':
      return { element: { ...optional, type: 'BOOLEAN' }, valueBytes: 0 };
    case 'date':
      return {
        element: { ...optional, type: 'INT32', converted_type: 'DATE', logical_type: { type: 'DATE' } },
        valueBytes: 4,
      };
    case 'timestamp':
    case 'timestamptz': {
      const isAdjustedToUTC = kind === 'timestamptz';
      const element: SchemaElement = {
        ...optional,
        type: 'INT64',
        logical_type: { type: 'TIMESTAMP', isAdjustedToUTC, unit: 'MICROS' },
        // The old converted type means "adjusted to UTC", so a wall-clock timestamp goes without it.
        ...(isAdjustedToUTC ? { converted_type: 'TIMESTAMP_MICROS' as const } : {}),
      };
      return { element, valueBytes: 8 };
    }
    case 'text':
    case 'numeric-text':
      return {
        element: {
          ...optional,
          type: 'BYTE_ARRAY',
          converted_type: 'UTF8',
          logical_type: { type: 'STRING' },
        },
        valueBytes: 0,
      };
  }
}

export type ValuesEncoding = 'PLAIN' | 'RLE_DICTIONARY' | 'DELTA_BINARY_PACKED';

/**
 * One row group's part of a column: its definition levels and values, ready for a data page, and
 * when its values are dictionary-encoded, the dictionary page that goes before it.
 */
export interface ColumnPage {
  rows: number;
  nullCount: number;
  /** The page's body (levels, then values), in parts to send as they are. */
  body: Uint8Array[];
  byteLength: number;
  /** The values' encoding: PLAIN, indices into `dictionary` (RLE_DICTIONARY), or DELTA_BINARY_PACKED. */
  encoding: ValuesEncoding;
  dictionary?: { entries: number; body: Uint8Array };
}

/**
 * One row group's part of a column as it was filled, before it becomes a page: the bytes move
 * to the thread that encodes and compresses the group (a buffer each, transferred, not copied).
 */
export interface FilledColumn {
  rows: number;
  values: number;
  nullCount: number;
  /** Definition levels, one bit per row: set where the row has a value. */
  validity: Uint8Array;
  /** The values, PLAIN (see ParquetColumn); for text, `byteLength` of them are used. */
  bytes: Uint8Array;
  byteLength: number;
}

/**
 * Buffers of groups already written, given back to fill the next groups: a file then allocates
 * its groups' buffers once rather than per group, which kept the memory of a thread that frees
 * what another allocated from growing with the table.
 */
export class SpareBuffers {
  private readonly spare: ArrayBuffer[] = [];

  constructor(private readonly most: number) {}

  /** A buffer of at least `bytes` (at most twice as many), zero-filled when `zeroed`. */
  take(bytes: number, zeroed: boolean): ArrayBuffer {
    const at = this.spare.findIndex((buffer) => buffer.byteLength >= bytes && buffer.byteLength <= bytes * 2);
    if (at === -1) return new ArrayBuffer(bytes);
    const [buffer] = this.spare.splice(at, 1);
    if (zeroed) new Uint8Array(buffer).fill(0);
    return buffer;
  }

  give(buffers: ArrayBuffer[]): void {
    for (const buffer of buffers) if (this.spare.length < this.most && buffer.byteLength > 0) this.spare.push(buffer);
  }
}

/** How a column's values are laid out and which encodings it tries: all a page needs beside its bytes. */
export class ColumnShape {
  readonly element: SchemaElement;
  readonly kind: ValueKind;
  readonly valueBytes: number;
  /** Every kind but booleans (a bit each already) tries a dictionary per chunk. */
  readonly tryDictionary: boolean;
  /** Integers, INT64 decimals and dates without a dictionary try DELTA_BINARY_PACKED. */
  readonly tryDelta: boolean;

  constructor(readonly column: ExportColumn) {
    this.kind = valueKind(column);
    ({ element: this.element, valueBytes: this.valueBytes } = layout(column, this.kind));
    this.tryDictionary = this.kind !== 'boolean';
    const int64 = this.kind === 'integer' || (this.kind === 'decimal' && this.valueBytes === 8);
    this.tryDelta = int64 || this.kind === 'date';
  }

  /**
   * A filled group's page body, its values as indices into a dictionary when one is worth it
   * (see DictionaryEncoder), else as differences when they are smaller (see DeltaEncoder), else
   * PLAIN.
   */
  page(filled: FilledColumn): ColumnPage {
    const levels = definitionLevels(filled);
    const plain = filled.bytes.subarray(0, this.valueLength(filled));
    const chunk = this.tryDictionary
      ? sharedDictionaryEncoder.encode(plain, filled.values, this.valueBytes)
      : undefined;
    const words = new Int32Array(filled.bytes.buffer, filled.bytes.byteOffset, filled.bytes.length >> 2);
    const deltas =
      chunk || !this.tryDelta ? undefined : sharedDeltaEncoder.encode(words, filled.values, this.valueBytes === 8);
    const values = chunk?.indices ?? deltas ?? plain;
    const encoding: ValuesEncoding = chunk ? 'RLE_DICTIONARY' : deltas ? 'DELTA_BINARY_PACKED' : 'PLAIN';
    return {
      rows: filled.rows,
      nullCount: filled.nullCount,
      body: [levels, values],
      byteLength: levels.length + values.length,
      encoding,
      dictionary: chunk && { entries: chunk.entries, body: chunk.dictionary },
    };
  }

  private valueLength(filled: FilledColumn): number {
    if (this.kind === 'boolean') return Math.ceil(filled.values / 8);
    if (this.valueBytes > 0) return filled.values * this.valueBytes;
    return filled.byteLength;
  }
}

/**
 * The rows' definition levels (bit width 1) in the RLE/bit-packed hybrid, behind their length
 * as data page v1 has it: one run of 1s when nothing is null, else the validity bits as
 * bit-packed groups of eight (the same bits, least significant first).
 */
function definitionLevels({ rows, nullCount, validity }: FilledColumn): Uint8Array {
  const run = nullCount === 0 ? [...varint(rows << 1), 1] : varint((Math.ceil(rows / 8) << 1) | 1);
  const packed = nullCount === 0 ? 0 : Math.ceil(rows / 8);
  const levels = new Uint8Array(4 + run.length + packed);
  new DataView(levels.buffer).setUint32(0, run.length + packed, true);
  levels.set(run, 4);
  if (packed > 0) levels.set(validity.subarray(0, packed), 4 + run.length);
  return levels;
}

/**
 * One column of a row group, filled from binary COPY fields straight into the bytes of a
 * Parquet data page (PLAIN values, as Parquet stores them, little-endian): no JavaScript value
 * per cell and no copy in between. `take()` hands the group's bytes over and starts afresh.
 */
export class ParquetColumn {
  readonly element: SchemaElement;
  private readonly kind: ValueKind;
  private readonly valueBytes: number;
  private readonly column: ExportColumn;
  private rows = 0;
  private values = 0;
  private nullCount = 0;
  /** Definition levels, one bit per row: set where the row has a value. */
  private validity!: Uint8Array;
  private bytes!: Uint8Array;
  private words!: Int32Array;
  private floats!: Float64Array;
  /** The same buffer again, for copying text four bytes at a time. */
  private view!: DataView;
  private byteLength = 0;
  /** Text bytes of the group last taken, to size the next group's buffer. */
  private lastByteLength = 0;
  /**
   * Whether the current group has buffers yet: a group gets them at its first value, not when the
   * previous one is taken, so the previous one's can be written and given back first.
   */
  private allocated = false;
  /** The COPY buffer text was last copied from, and a view of it (one per chunk, not per value). */
  private source?: Buffer;
  private sourceView?: DataView;
  /** A decimal's four 32-bit words before they are laid out. */
  private readonly decimalWords = new Uint32Array(4);

  constructor(
    readonly shape: ColumnShape,
    private readonly capacity: number,
    private readonly buffers: SpareBuffers = new SpareBuffers(0),
  ) {
    ({ element: this.element, kind: this.kind, valueBytes: this.valueBytes, column: this.column } = shape);
    this.allocate();
  }

  append(buffer: Buffer, start: number, length: number): void {
    if (!this.allocated) this.allocate();
    const row = this.rows++;
    if (length < 0) {
      this.nullCount++;
      return;
    }
    const index = this.values;
    switch (this.kind) {
      case 'integer':
        if (length === 8) copyInt64(buffer, start, this.words, index);
        else
          copySmallInt(length === 4 ? int32At(buffer, start) : buffer.readInt16BE(start), this.words, index);
        break;
      case 'decimal':
        this.appendDecimal(buffer, start, index);
        break;
      case 'float':
        this.floats[index] = buffer.readDoubleBE(start);
        break;
      case 'boolean':
        if (buffer[start] !== 0) this.bytes[index >> 3] |= 1 << (index & 7);
        break;
      case 'date': {
        const days = int32At(buffer, start);
        if (days === DATE_INFINITY || days === DATE_MINUS_INFINITY) {
          this.nullCount++;
          return;
        }
        this.words[index] = days + PG_EPOCH_DAYS;
        break;
      }
      case 'timestamp':
      case 'timestamptz':
        if (!copyTimestamp(buffer, start, this.words, index)) {
          this.nullCount++;
          return;
        }
        break;
      case 'text':
        this.appendBytes(buffer, start, length);
        break;
      case 'numeric-text':
        this.appendAscii(numericText(buffer, start) ?? numericSpecial(buffer, start));
        break;
    }
    this.values++;
    this.validity[row >> 3] |= 1 << (row & 7);
  }

  /** The group's page body so far (see ColumnShape.page); the column starts over empty. */
  page(): ColumnPage {
    return this.shape.page(this.take());
  }

  /** The group's values so far, in buffers now the caller's; the column starts over empty. */
  take(): FilledColumn {
    if (!this.allocated) this.allocate();
    const filled: FilledColumn = {
      rows: this.rows,
      values: this.values,
      nullCount: this.nullCount,
      validity: this.validity,
      bytes: this.bytes,
      byteLength: this.byteLength,
    };
    this.lastByteLength = this.byteLength;
    this.rows = 0;
    this.values = 0;
    this.nullCount = 0;
    this.byteLength = 0;
    // The COPY chunk is not needed once read: a view of it would keep it (or a moved batch) referred to.
    this.source = undefined;
    this.sourceView = undefined;
    this.allocated = false;
    return filled;
  }

  /** A decimal as INT64 (little-endian) or as 16 big-endian bytes of two's complement. */
  private appendDecimal(buffer: Buffer, start: number, index: number): void {
    const words = this.decimalWords;
    writeScaledDecimal(buffer, start, this.column.decimal!.scale, words, 0);
    if (this.valueBytes === 8) {
      this.words[index * 2] = words[0];
      this.words[index * 2 + 1] = words[1];
      return;
    }
    const bytes = this.bytes;
    let at = index * WIDE_DECIMAL_BYTES;
    for (let word = 3; word >= 0; word--) {
      const value = words[word];
      bytes[at++] = value >>> 24;
      bytes[at++] = (value >>> 16) & 0xff;
      bytes[at++] = (value >>> 8) & 0xff;
      bytes[at++] = value & 0xff;
    }
  }

  /** A BYTE_ARRAY value: its length (4 bytes, little-endian), then its bytes. */
  private appendBytes(buffer: Buffer, start: number, length: number): void {
    const at = this.reserveBytes(length);
    // Most text values are short, and a native copy's set-up costs more than the bytes it moves:
    // they go four bytes at a time, read and written as whole integers (exact, unlike a double's
    // NaN bits), then byte by byte.
    if (length <= SHORT_VALUE_BYTES) {
      const source = this.viewOf(buffer);
      const target = this.view;
      let byte = 0;
      for (; byte + 4 <= length; byte += 4)
        target.setInt32(at + byte, source.getInt32(start + byte, true), true);
      for (; byte < length; byte++) this.bytes[at + byte] = buffer[start + byte];
    } else this.bytes.set(buffer.subarray(start, start + length), at);
  }

  /** A numeric's text (digits, sign, point, or NaN/Infinity: ASCII) as a BYTE_ARRAY value. */
  private appendAscii(text: string): void {
    const at = this.reserveBytes(text.length);
    for (let index = 0; index < text.length; index++) this.bytes[at + index] = text.charCodeAt(index);
  }

  /** Writes a BYTE_ARRAY value's length and makes room for its bytes; answers where they go. */
  private reserveBytes(length: number): number {
    const at = this.byteLength;
    if (at + 4 + length > this.bytes.length) {
      const grown = new ArrayBuffer(Math.max(this.bytes.length * 2, at + 4 + length));
      new Uint8Array(grown).set(this.bytes.subarray(0, at));
      this.use(grown);
    }
    this.view.setInt32(at, length, true);
    this.byteLength = at + 4 + length;
    return at + 4;
  }

  private viewOf(buffer: Buffer): DataView {
    if (buffer !== this.source) {
      this.source = buffer;
      this.sourceView = new DataView(buffer.buffer, buffer.byteOffset, buffer.length);
    }
    return this.sourceView!;
  }

  /** Fresh buffers: the previous ones now belong to the page handed out. */
  private allocate(): void {
    // Levels and booleans are bits set one by one: their buffers start zeroed.
    this.validity = new Uint8Array(this.buffers.take(Math.ceil(this.capacity / 8), true));
    const fixedBytes =
      this.kind === 'boolean' ? Math.ceil(this.capacity / 8) : this.capacity * this.valueBytes;
    // Fixed-width values fill one buffer seen three ways; text grows its own, from the size the
    // previous group's text needed (an eighth more), so groups alike do not grow it step by step.
    const textBytes = Math.max(MIN_TEXT_BYTES, Math.ceil(this.lastByteLength * 1.125));
    this.allocated = true;
    this.use(this.buffers.take(fixedBytes > 0 ? fixedBytes : textBytes, this.kind === 'boolean'));
  }

  private use(buffer: ArrayBuffer): void {
    this.bytes = new Uint8Array(buffer);
    this.words = new Int32Array(buffer, 0, buffer.byteLength >> 2);
    this.floats = new Float64Array(buffer, 0, buffer.byteLength >> 3);
    this.view = new DataView(buffer);
  }
}
