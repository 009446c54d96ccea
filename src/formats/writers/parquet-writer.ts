import { ByteWriter } from 'hyparquet-writer';
import { writeMetadata } from 'hyparquet-writer/src/metadata.js';
import { serializeTCompactProtocol } from 'hyparquet-writer/src/thrift.js';
import { Duplex } from 'node:stream';
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
 * Turns a binary COPY of `columns` into one Parquet file, streamed row group by row group: each
 * group is one uncompressed, PLAIN-encoded data page per column, filled straight from the COPY's
 * fields, and goes out as soon as it is full; the footer (schema and where each page is) ends it.
 */
export function parquetEncoder(columns: ExportColumn[]): Duplex {
  return Duplex.from(async function* (copy: AsyncIterable<Buffer>) {
    const file = new ParquetFileLayout(columns);
    yield MAGIC;
    for await (const group of rowGroups(file.columns, copy))
      for (const part of file.rowGroup(group))
        if (part.length > 0) yield Buffer.from(part.buffer, part.byteOffset, part.length);
    yield file.footer();
  });
}

/** The file's row groups as column pages; at least one (maybe empty) so readers see a group. */
async function* rowGroups(
  columns: ParquetColumn[],
  copy: AsyncIterable<Buffer>,
): AsyncGenerator<ColumnPage[]> {
  const full: ColumnPage[][] = [];
  let rows = 0;
  let copyBytes = 0;
  const finish = (): ColumnPage[] => {
    rows = 0;
    copyBytes = 0;
    return columns.map((column) => column.page());
  };
  const parser = new BinaryCopyRows(columns.length, {
    row(buffer, starts, lengths) {
      for (let index = 0; index < columns.length; index++)
        columns[index].append(buffer, starts[index], lengths[index]);
      if (++rows === ROWS_PER_GROUP) full.push(finish());
    },
  });
  let sent = false;
  for await (const chunk of copy) {
    parser.push(chunk);
    copyBytes += chunk.length;
    if (copyBytes >= COPY_BYTES_PER_GROUP && rows > 0) full.push(finish());
    for (let group = full.shift(); group; group = full.shift()) {
      sent = true;
      yield group;
    }
  }
  if (!parser.complete) throw new Error('The table copy ended early');
  if (rows > 0 || !sent) yield finish();
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

  /** One row group's bytes: per column, a data page header and its body. */
  rowGroup(pages: ColumnPage[]): Uint8Array[] {
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
    const rows = pages[0]?.rows ?? 0;
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
