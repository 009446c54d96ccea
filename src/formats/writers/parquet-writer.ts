import { ByteWriter } from 'hyparquet-writer';
import { writeMetadata } from 'hyparquet-writer/src/metadata.js';
import { serializeTCompactProtocol } from 'hyparquet-writer/src/thrift.js';
import { Transform, TransformCallback } from 'node:stream';
import { ExportColumn } from '../binary-columns';
import { BinaryCopyRows } from '../binary-copy-rows';
import { ColumnPage, FileMetaData, ParquetColumn } from './parquet-column';

type RowGroup = FileMetaData['row_groups'][number];
type ColumnChunk = RowGroup['columns'][number];

/**
 * Rows per row group, and COPY bytes after which a group is closed early (wide text rows): what
 * one request holds in memory at most, whatever the table's size.
 */
export const ROWS_PER_GROUP = 65_536;
const COPY_BYTES_PER_GROUP = 32 * 1024 * 1024;
const MAGIC = Buffer.from('PAR1');
const CREATED_BY = 'Data Marketplace';
/** Thrift enum values of the Parquet format (parquet.thrift). */
const DATA_PAGE = 0;
const PLAIN = 0;
const RLE = 3;

/**
 * Finished row groups waiting to be read: the encoder goes on filling the next group while the
 * client takes these, and waits once this much is unread (so memory stays bounded).
 */
const UNREAD_BYTES = 8 * 1024 * 1024;

/**
 * COPY bytes kept while the columns' shapes are still being learnt: the COPY goes on meanwhile,
 * and waits once this much has come.
 */
const EARLY_COPY_BYTES = 24 * 1024 * 1024;

/**
 * Turns a binary COPY of `columns` into one Parquet file, streamed row group by row group: each
 * group is one uncompressed, PLAIN-encoded data page per column, filled straight from the COPY's
 * fields, and goes out as soon as it is full; the footer (schema and where each page is) ends it.
 * `ready` settles once the columns are complete (a numeric's digits may be learnt while the COPY
 * already runs); its failure fails the file.
 */
export function parquetEncoder(columns: ExportColumn[], ready: Promise<void> = Promise.resolve()): Transform {
  return new ParquetEncoder(columns, ready);
}

class ParquetEncoder extends Transform {
  private file?: ParquetFileLayout;
  private parser?: BinaryCopyRows;
  private rows = 0;
  private copyBytes = 0;
  private groups = 0;
  /** COPY chunks that came before the columns were complete, and their bytes. */
  private early: Buffer[] = [];
  private earlyBytes = 0;
  /** Settles when the columns are complete: the file is laid out, or why it cannot be. */
  private readonly started: Promise<void>;
  /** Why the file cannot be written: every later chunk fails with it at once. */
  private failure?: Error;

  constructor(columns: ExportColumn[], ready: Promise<void>) {
    super({ readableHighWaterMark: UNREAD_BYTES });
    this.push(MAGIC);
    this.started = ready.then(() => this.start(columns));
    // Kept for the next chunk or the end, which report it.
    this.started.catch((error: unknown) => {
      this.failure ??= error instanceof Error ? error : new Error(String(error));
    });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.failure) return callback(this.failure);
    if (!this.parser) {
      this.early.push(chunk);
      this.earlyBytes += chunk.length;
      if (this.earlyBytes < EARLY_COPY_BYTES) return callback();
      this.started.then(() => callback(), callback);
      return;
    }
    this.consume(chunk, callback);
  }

  override _flush(callback: TransformCallback): void {
    this.started.then(() => {
      if (this.failure) return callback(this.failure);
      if (!this.parser!.complete) return callback(new Error('The table copy ended early'));
      // At least one group, maybe empty, so readers see the schema's columns.
      if (this.rows > 0 || this.groups === 0) this.finishGroup();
      this.push(this.file!.footer());
      callback();
    }, callback);
  }

  /** Lays the file out now that the columns are complete, and reads what came meanwhile. */
  private start(columns: ExportColumn[]): void {
    const file = new ParquetFileLayout(columns);
    const fileColumns = file.columns;
    this.file = file;
    this.parser = new BinaryCopyRows(fileColumns.length, {
      row: (buffer, starts, lengths) => {
        for (let index = 0; index < fileColumns.length; index++)
          fileColumns[index].append(buffer, starts[index], lengths[index]);
        if (++this.rows === ROWS_PER_GROUP) this.finishGroup();
      },
    });
    const early = this.early;
    this.early = [];
    for (const chunk of early)
      this.consume(chunk, (error) => {
        if (error) throw error;
      });
  }

  private consume(chunk: Buffer, callback: TransformCallback): void {
    try {
      this.parser!.push(chunk);
      this.copyBytes += chunk.length;
      if (this.copyBytes >= COPY_BYTES_PER_GROUP && this.rows > 0) this.finishGroup();
      callback();
    } catch (error) {
      this.failure ??= error as Error;
      callback(error as Error);
    }
  }

  private finishGroup(): void {
    const pages = this.file!.columns.map((column) => column.page());
    for (const part of this.file!.rowGroup(pages, this.rows))
      if (part.length > 0) this.push(Buffer.from(part.buffer, part.byteOffset, part.length));
    this.rows = 0;
    this.copyBytes = 0;
    this.groups++;
  }
}

/** Where the file's bytes go, remembered for the footer that describes them. */
class ParquetFileLayout {
  readonly columns: ParquetColumn[];
  private offset = MAGIC.length;
  private rows = 0n;
  private readonly groups: RowGroup[] = [];

  constructor(exportColumns: ExportColumn[]) {
    this.columns = exportColumns.map((column) => new ParquetColumn(column, ROWS_PER_GROUP));
  }

  /** One row group of `rows` rows (counted apart: a result may have no columns): per column, a data page header and its body. */
  rowGroup(pages: ColumnPage[], rows: number): Uint8Array[] {
    const parts: Uint8Array[] = [];
    const chunks: ColumnChunk[] = [];
    const groupStart = this.offset;
    pages.forEach((page, index) => {
      const header = pageHeader(page);
      const start = BigInt(this.offset);
      const size = BigInt(header.length + page.byteLength);
      parts.push(header, ...page.body);
      this.offset += header.length + page.byteLength;
      const element = this.columns[index].element;
      chunks.push({
        file_offset: start,
        meta_data: {
          type: element.type!,
          encodings: ['PLAIN', 'RLE'],
          path_in_schema: [element.name],
          codec: 'UNCOMPRESSED',
          num_values: BigInt(page.rows),
          total_uncompressed_size: size,
          total_compressed_size: size,
          data_page_offset: start,
          statistics: { null_count: BigInt(page.nullCount) },
        },
      });
    });
    const groupBytes = BigInt(this.offset - groupStart);
    this.groups.push({
      columns: chunks,
      total_byte_size: groupBytes,
      num_rows: BigInt(rows),
      file_offset: BigInt(groupStart),
      total_compressed_size: groupBytes,
    });
    this.rows += BigInt(rows);
    return parts;
  }

  /** The file's metadata, its length and the closing magic. */
  footer(): Buffer {
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
    return Buffer.concat([writer.getBytes(), MAGIC]);
  }
}

/** A v1 data page's header: PLAIN values after RLE definition levels, uncompressed. */
function pageHeader(page: ColumnPage): Uint8Array {
  const writer = new ByteWriter(64);
  serializeTCompactProtocol(writer, {
    field_1: DATA_PAGE,
    field_2: page.byteLength,
    field_3: page.byteLength,
    field_5: { field_1: page.rows, field_2: PLAIN, field_3: RLE, field_4: RLE },
  });
  return writer.getBytes();
}
