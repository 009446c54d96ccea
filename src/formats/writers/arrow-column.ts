import * as arrow from 'apache-arrow';
import { ExportColumn, valueKind, ValueKind } from '../binary-columns';
import {
  numericSpecial,
  numericText,
  copyInt64,
  copySmallInt,
  copyTimestamp,
  DATE_INFINITY,
  DATE_MINUS_INFINITY,
  PG_EPOCH_DAYS,
  writeScaledDecimal,
} from '../pg-binary-values';

function arrowType(column: ExportColumn, kind: ValueKind): arrow.DataType {
  switch (kind) {
    case 'integer':
      return new arrow.Int64();
    case 'decimal':
      return new arrow.Decimal(column.decimal!.scale, column.decimal!.precision, 128);
    case 'float':
      return new arrow.Float64();
    case 'boolean':
      return new arrow.Bool();
    case 'date':
      return new arrow.DateDay();
    case 'timestamp':
      return new arrow.TimestampMicrosecond(null);
    case 'timestamptz':
      return new arrow.TimestampMicrosecond('UTC');
    case 'text':
    case 'numeric-text':
      return new arrow.Utf8();
  }
}

/** Values up to this length are copied byte by byte rather than by a native copy. */
const SHORT_VALUE_BYTES = 256;

/** 32-bit words each value takes in the column's value buffer (0: bits or bytes elsewhere). */
const WORDS_PER_VALUE: Record<ValueKind, number> = {
  integer: 2,
  decimal: 4,
  'numeric-text': 0,
  float: 2,
  boolean: 0,
  date: 1,
  timestamp: 2,
  timestamptz: 2,
  text: 0,
};

/**
 * One column of a row group, filled from binary COPY fields straight into Arrow's buffers
 * (no JavaScript value per cell), then handed over as Arrow data and started afresh.
 */
export class ArrowColumn {
  readonly field: arrow.Field;
  private readonly kind: ValueKind;
  private readonly type: arrow.DataType;
  private length = 0;
  private nullCount = 0;
  private validity: Uint8Array;
  private words: Int32Array;
  /** The same buffer as `words`, for decimals and floats. */
  private unsignedWords: Uint32Array;
  private floats: Float64Array;
  private bits: Uint8Array;
  private offsets: Int32Array;
  private bytes: Uint8Array;
  private byteLength = 0;

  constructor(
    private readonly column: ExportColumn,
    private readonly capacity: number,
  ) {
    this.kind = valueKind(column);
    this.type = arrowType(column, this.kind);
    this.field = new arrow.Field(column.label, this.type, true);
    this.allocate();
  }

  append(buffer: Buffer, start: number, length: number): void {
    const index = this.length++;
    if (length < 0) return this.markNull(index);
    switch (this.kind) {
      case 'integer':
        if (length === 8) copyInt64(buffer, start, this.words, index);
        else
          copySmallInt(
            length === 4 ? buffer.readInt32BE(start) : buffer.readInt16BE(start),
            this.words,
            index,
          );
        break;
      case 'decimal':
        writeScaledDecimal(buffer, start, this.column.decimal!.scale, this.unsignedWords, index);
        break;
      case 'float':
        this.floats[index] = buffer.readDoubleBE(start);
        break;
      case 'boolean':
        if (buffer[start] !== 0) this.bits[index >> 3] |= 1 << (index & 7);
        break;
      case 'date': {
        const days = buffer.readInt32BE(start);
        if (days === DATE_INFINITY || days === DATE_MINUS_INFINITY) return this.markNull(index);
        this.words[index] = days + PG_EPOCH_DAYS;
        break;
      }
      case 'timestamp':
      case 'timestamptz':
        if (!copyTimestamp(buffer, start, this.words, index)) return this.markNull(index);
        break;
      case 'text':
        this.appendBytes(buffer, start, length, index);
        break;
      case 'numeric-text': {
        const text = Buffer.from(numericText(buffer, start) ?? numericSpecial(buffer, start));
        this.appendBytes(text, 0, text.length, index);
        break;
      }
    }
    this.validity[index >> 3] |= 1 << (index & 7);
  }

  /** The column's rows so far as Arrow data; the builder starts over empty. */
  finish(): arrow.Data {
    const length = this.length;
    const common = {
      type: this.type,
      length,
      nullCount: this.nullCount,
      nullBitmap: this.validity.subarray(0, Math.ceil(length / 8)),
    };
    let data: arrow.Data;
    if (isText(this.kind)) {
      data = arrow.makeData({
        ...common,
        type: this.type as arrow.Utf8,
        valueOffsets: this.offsets.subarray(0, length + 1),
        data: this.bytes.subarray(0, this.byteLength),
      });
    } else if (this.kind === 'boolean') {
      data = arrow.makeData({
        ...common,
        type: this.type as arrow.Bool,
        data: this.bits.subarray(0, Math.ceil(length / 8)),
      });
    } else {
      const values = this.words.subarray(0, length * WORDS_PER_VALUE[this.kind]);
      data = arrow.makeData({ ...common, type: this.type as arrow.Int32, data: values } as never);
    }
    this.allocate();
    return data;
  }

  private markNull(index: number): void {
    this.nullCount++;
    if (isText(this.kind)) this.offsets[index + 1] = this.byteLength;
  }

  private appendBytes(buffer: Buffer, start: number, length: number, index: number): void {
    if (this.byteLength + length > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.byteLength + length));
      grown.set(this.bytes.subarray(0, this.byteLength));
      this.bytes = grown;
    }
    const bytes = this.bytes;
    const at = this.byteLength;
    // Most text values are short, and Buffer#copy's checks cost more than the bytes it moves.
    if (length <= SHORT_VALUE_BYTES)
      for (let byte = 0; byte < length; byte++) bytes[at + byte] = buffer[start + byte];
    else bytes.set(buffer.subarray(start, start + length), at);
    this.byteLength += length;
    this.offsets[index + 1] = this.byteLength;
  }

  /** Fresh buffers: the finished ones now belong to the Arrow data handed out. */
  private allocate(): void {
    this.length = 0;
    this.nullCount = 0;
    this.byteLength = 0;
    this.validity = new Uint8Array(Math.ceil(this.capacity / 8));
    this.words = new Int32Array(this.capacity * WORDS_PER_VALUE[this.kind]);
    this.unsignedWords = new Uint32Array(this.words.buffer);
    this.floats = new Float64Array(this.kind === 'float' ? this.words.buffer : new ArrayBuffer(0));
    this.bits = new Uint8Array(this.kind === 'boolean' ? Math.ceil(this.capacity / 8) : 0);
    this.offsets = new Int32Array(isText(this.kind) ? this.capacity + 1 : 0);
    this.bytes = new Uint8Array(isText(this.kind) ? 64 * 1024 : 0);
  }
}

function isText(kind: ValueKind): boolean {
  return kind === 'text' || kind === 'numeric-text';
}
