import { ByteWriter } from 'hyparquet-writer';
import { writeMetadata } from 'hyparquet-writer/src/metadata.js';
import { serializeTCompactProtocol } from 'hyparquet-writer/src/thrift.js';
import { ExportColumn } from '../binary-columns';
import { BinaryCopyRows } from '../binary-copy-rows';
import {
  ColumnPage,
  ColumnShape,
  FileMetaData,
  FilledColumn,
  ParquetColumn,
  SpareBuffers,
  ValuesEncoding,
} from './parquet-column';
import { PageCodec, pageCodec, ParquetCompression } from './parquet-compression';

type RowGroup = FileMetaData['row_groups'][number];
type ColumnChunk = RowGroup['columns'][number];

/**
 * Rows per row group, and COPY bytes after which a group is closed early (wide text rows): what
 * one file holds in memory at most, whatever the table's size.
 */
export const ROWS_PER_GROUP = 65_536;
const COPY_BYTES_PER_GROUP = 32 * 1024 * 1024;
/** Opens and closes every Parquet file. */
export const PARQUET_MAGIC = Buffer.from('PAR1');
const CREATED_BY = 'Data Marketplace';
/** Thrift enum values of the Parquet format (parquet.thrift). */
const DATA_PAGE = 0;
const DICTIONARY_PAGE = 2;
const PLAIN = 0;
const RLE = 3;
const DELTA_BINARY_PACKED = 5;
const RLE_DICTIONARY = 8;
const VALUES_ENCODING: Record<ValuesEncoding, number> = { PLAIN, RLE_DICTIONARY, DELTA_BINARY_PACKED };

/** One row group as filled from the COPY: its rows and each column's values, not yet pages. */
export interface FilledGroup {
  rows: number;
  columns: FilledColumn[];
}

/** The buffers of a filled group, which move to another thread rather than being copied. */
export function groupBuffers(group: FilledGroup): ArrayBuffer[] {
  return group.columns.flatMap((column) => [column.validity.buffer, column.bytes.buffer] as ArrayBuffer[]);
}

/**
 * The first half of a file's work: reads a binary COPY of `columns` (their shapes complete) into
 * row groups of column values, each handed out as soon as it is full. Synchronous, so it runs the
 * same on any thread; the groups' buffers are their own.
 */
export class ParquetGroupFiller {
  private readonly columns: ParquetColumn[];
  private readonly parser: BinaryCopyRows;
  /** Two groups' buffers: one being written while the next is filled. */
  private readonly spare: SpareBuffers;
  private rows = 0;
  private copyBytes = 0;
  private groups = 0;
  /** Groups finished by the current `push`. */
  private filled: FilledGroup[] = [];

  /**
   * `written`, when given, takes each group as soon as it is full (and gives its buffers back)
   * before the next row is read, rather than `push` answering it.
   */
  constructor(
    columns: ExportColumn[],
    private readonly written?: (group: FilledGroup) => void,
  ) {
    const spare = new SpareBuffers(columns.length * 2 * 2);
    this.spare = spare;
    const fileColumns = columns.map(
      (column) => new ParquetColumn(new ColumnShape(column), ROWS_PER_GROUP, spare),
    );
    this.columns = fileColumns;
    this.parser = new BinaryCopyRows(fileColumns.length, {
      row: (buffer, starts, lengths) => {
        for (let index = 0; index < fileColumns.length; index++)
          fileColumns[index].append(buffer, starts[index], lengths[index]);
        if (++this.rows === ROWS_PER_GROUP) this.finishGroup();
      },
    });
  }

  /** Reads a chunk of the COPY; answers the row groups it completed, in order. */
  push(chunk: Buffer): FilledGroup[] {
    this.parser.push(chunk);
    this.copyBytes += chunk.length;
    if (this.copyBytes >= COPY_BYTES_PER_GROUP && this.rows > 0) this.finishGroup();
    return this.takeFilled();
  }

  /** Buffers of groups already written (see ParquetFileWriter.reusable), to fill the next ones. */
  reuse(buffers: ArrayBuffer[]): void {
    this.spare.give(buffers);
  }

  /** The last group, once the COPY has ended; fails if it ended early. */
  finish(): FilledGroup[] {
    if (!this.parser.complete) throw new Error('The table copy ended early');
    // At least one group, maybe empty, so readers see the schema's columns.
    if (this.rows > 0 || this.groups === 0) this.finishGroup();
    return this.takeFilled();
  }

  private takeFilled(): FilledGroup[] {
    const groups = this.filled;
    if (groups.length > 0) this.filled = [];
    return groups;
  }

  private finishGroup(): void {
    const group = { rows: this.rows, columns: this.columns.map((column) => column.take()) };
    if (this.written) this.written(group);
    else this.filled.push(group);
    this.rows = 0;
    this.copyBytes = 0;
    this.groups++;
  }
}

/**
 * The second half: filled row groups, in order, as the file's bytes (everything after its opening
 * magic): each group one data page per column (PLAIN, dictionary indices after a dictionary page,
 * or deltas), compressed as `compression` says; the footer (schema and where each page is) ends
 * the file. Every part handed out lies in a buffer of its own, so it can move between threads.
 */
export class ParquetFileWriter {
  private readonly layout: ParquetFileLayout;
  private readonly shapes: ColumnShape[];
  private readonly compressed: boolean;

  constructor(columns: ExportColumn[], compression: ParquetCompression) {
    this.shapes = columns.map((column) => new ColumnShape(column));
    const codec = pageCodec(compression);
    this.compressed = codec !== undefined;
    this.layout = new ParquetFileLayout(this.shapes, codec);
  }

  group(group: FilledGroup): Uint8Array[] {
    const pages = group.columns.map((filled, index) => this.shapes[index].page(filled));
    return this.layout.rowGroup(pages, group.rows).filter((part) => part.length > 0);
  }

  /**
   * A written group's buffers, free to fill another group: when pages are compressed, the file's
   * parts are the codec's copies; uncompressed, PLAIN values went out as they are, so none is.
   */
  reusable(group: FilledGroup): ArrayBuffer[] {
    return this.compressed ? groupBuffers(group) : [];
  }

  footer(): Uint8Array {
    return this.layout.footer();
  }
}

/**
 * Both halves on one thread: the body of a Parquet file made from the bytes of a binary COPY,
 * handed out group by group as each is full, then the footer.
 */
export class ParquetFileEncoder {
  private readonly filler: ParquetGroupFiller;
  private readonly writer: ParquetFileWriter;
  /** Parts of the groups written during the current `push`. */
  private parts: Uint8Array[] = [];

  constructor(columns: ExportColumn[], compression: ParquetCompression) {
    // Each group is written as soon as it is full, so the next one fills its buffers again.
    this.filler = new ParquetGroupFiller(columns, (group) => this.write(group));
    this.writer = new ParquetFileWriter(columns, compression);
  }

  /** Reads a chunk of the COPY; answers the parts of the row groups it completed, in order. */
  push(chunk: Buffer): Uint8Array[] {
    this.filler.push(chunk);
    return this.takeParts();
  }

  /** The last group and the footer, once the COPY has ended; fails if it ended early. */
  finish(): Uint8Array[] {
    this.filler.finish();
    this.parts.push(this.writer.footer());
    return this.takeParts();
  }

  private write(group: FilledGroup): void {
    for (const part of this.writer.group(group)) this.parts.push(part);
    this.filler.reuse(this.writer.reusable(group));
  }

  private takeParts(): Uint8Array[] {
    const parts = this.parts;
    this.parts = [];
    return parts;
  }
}

/** Where the file's bytes go, remembered for the footer that describes them. */
class ParquetFileLayout {
  private offset = PARQUET_MAGIC.length;
  private rows = 0n;
  private readonly groups: RowGroup[] = [];

  /** Undefined when the pages go uncompressed, as they are. */
  private readonly codec?: PageCodec;

  constructor(
    private readonly columns: ColumnShape[],
    codec: PageCodec | undefined,
  ) {
    this.codec = codec;
  }

  /**
   * One row group of `rows` rows (counted apart: a result may have no columns): per column, its
   * dictionary page when it has one, then its data page, each a header and its (compressed) body.
   */
  rowGroup(pages: ColumnPage[], rows: number): Uint8Array[] {
    const parts: Uint8Array[] = [];
    const chunks: ColumnChunk[] = [];
    const groupStart = this.offset;
    let groupUncompressed = 0;
    pages.forEach((page, index) => {
      const start = this.offset;
      let uncompressed = 0;
      let dictionaryOffset: bigint | undefined;
      if (page.dictionary) {
        dictionaryOffset = BigInt(this.offset);
        const { entries, body } = page.dictionary;
        uncompressed += this.writePage(parts, [body], body.length, (stored) =>
          dictionaryPageHeader(entries, body.length, stored),
        );
      }
      const dataOffset = BigInt(this.offset);
      uncompressed += this.writePage(parts, page.body, page.byteLength, (stored) =>
        dataPageHeader(page, stored),
      );
      groupUncompressed += uncompressed;
      const element = this.columns[index].element;
      chunks.push({
        file_offset: BigInt(start),
        meta_data: {
          type: element.type!,
          encodings: chunkEncodings(page),
          path_in_schema: [element.name],
          codec: this.codec?.name ?? 'UNCOMPRESSED',
          num_values: BigInt(page.rows),
          total_uncompressed_size: BigInt(uncompressed),
          total_compressed_size: BigInt(this.offset - start),
          data_page_offset: dataOffset,
          dictionary_page_offset: dictionaryOffset,
          statistics: { null_count: BigInt(page.nullCount) },
        },
      });
    });
    this.groups.push({
      columns: chunks,
      total_byte_size: BigInt(groupUncompressed),
      num_rows: BigInt(rows),
      file_offset: BigInt(groupStart),
      total_compressed_size: BigInt(this.offset - groupStart),
    });
    this.rows += BigInt(rows);
    return parts;
  }

  /**
   * A page's header and its body, compressed when the file's pages are, added to `parts`; answers
   * the page's uncompressed size (header included), as the column chunk's metadata counts it.
   */
  private writePage(
    parts: Uint8Array[],
    body: Uint8Array[],
    byteLength: number,
    header: (storedLength: number) => Uint8Array,
  ): number {
    const stored = this.codec ? [this.codec.compress(body, byteLength)] : body;
    const storedLength = this.codec ? stored[0].length : byteLength;
    const head = header(storedLength);
    parts.push(head, ...stored);
    this.offset += head.length + storedLength;
    return head.length + byteLength;
  }

  /** The file's metadata, its length and the closing magic. */
  footer(): Uint8Array {
    const metadata: FileMetaData = {
      version: 2,
      schema: [
        { name: 'schema', num_children: this.columns.length },
        ...this.columns.map((column) => column.element),
      ],
      num_rows: this.rows,
      row_groups: this.groups,
      created_by: CREATED_BY,
      metadata_length: 0,
    };
    const writer = new ByteWriter();
    writeMetadata(writer, metadata);
    const body = writer.getBytes();
    // A buffer of its own (not one of Node's shared small-buffer pool), so it can move between threads.
    const footer = new Uint8Array(body.length + PARQUET_MAGIC.length);
    footer.set(body);
    footer.set(PARQUET_MAGIC, body.length);
    return footer;
  }
}

/**
 * A v1 data page's header: its values (PLAIN, dictionary indices or deltas) after RLE definition
 * levels, both compressed together into `storedLength` bytes (the page's own length when
 * uncompressed).
 */
function dataPageHeader(page: ColumnPage, storedLength: number): Uint8Array {
  const writer = new ByteWriter(64);
  const encoding = VALUES_ENCODING[page.encoding];
  serializeTCompactProtocol(writer, {
    field_1: DATA_PAGE,
    field_2: page.byteLength,
    field_3: storedLength,
    field_5: { field_1: page.rows, field_2: encoding, field_3: RLE, field_4: RLE },
  });
  return writer.getBytes();
}

/** A dictionary page's header: `entries` values, PLAIN (as the format asks of current files). */
function dictionaryPageHeader(entries: number, byteLength: number, storedLength: number): Uint8Array {
  const writer = new ByteWriter(64);
  serializeTCompactProtocol(writer, {
    field_1: DICTIONARY_PAGE,
    field_2: byteLength,
    field_3: storedLength,
    field_7: { field_1: entries, field_2: PLAIN },
  });
  return writer.getBytes();
}

/** The encodings a column chunk uses, for its metadata: the dictionary page's PLAIN, the levels' RLE, the values'. */
function chunkEncodings(page: ColumnPage): NonNullable<ColumnChunk['meta_data']>['encodings'] {
  if (page.dictionary) return ['PLAIN', 'RLE', 'RLE_DICTIONARY'];
  return page.encoding === 'PLAIN' ? ['PLAIN', 'RLE'] : [page.encoding, 'RLE'];
}
