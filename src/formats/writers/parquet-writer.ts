import * as arrow from 'apache-arrow';
import { Duplex } from 'node:stream';
import { ExportColumn } from '../binary-columns';
import { BinaryCopyRows } from '../binary-copy-rows';
import { ArrowColumn } from './arrow-column';
import { ParquetEncoderThread } from './parquet-encoder-thread';

/**
 * Rows per row group, and COPY bytes after which a group is closed early (wide text rows): what
 * one request holds in memory at most, once in JavaScript and once in the encoder's WebAssembly
 * memory, whatever the table's size.
 */
export const ROWS_PER_GROUP = 65_536;
const COPY_BYTES_PER_GROUP = 32 * 1024 * 1024;

/**
 * Turns a binary COPY of `columns` into one Parquet file, streamed row group by row group:
 * rows fill Arrow columns here while a thread of its own encodes the previous group (arrow-rs
 * compiled to WebAssembly), whose bytes go out as soon as they are ready.
 */
export function parquetEncoder(columns: ExportColumn[]): Duplex {
  return Duplex.from(async function* (copy: AsyncIterable<Buffer>) {
    const encoder = new ParquetEncoderThread({ rowsPerGroup: ROWS_PER_GROUP, createdBy: 'Data Marketplace' });
    void sendGroups(encoder, rowGroups(columns, copy));
    try {
      yield* encoder.output();
    } finally {
      encoder.release();
    }
  });
}

/** Arrow IPC is how a group crosses to the encoder's thread, and then into its WebAssembly memory. */
async function sendGroups(
  encoder: ParquetEncoderThread,
  groups: AsyncIterable<arrow.RecordBatch>,
): Promise<void> {
  try {
    for await (const group of groups)
      await encoder.send(arrow.tableToIPC(new arrow.Table([group]), 'stream'));
    encoder.end();
  } catch (error) {
    encoder.fail(error instanceof Error ? error : new Error(String(error)));
  }
}

/** The COPY's rows in Arrow record batches of at most ROWS_PER_GROUP; always one, maybe empty, for the schema. */
async function* rowGroups(
  columns: ExportColumn[],
  copy: AsyncIterable<Buffer>,
): AsyncGenerator<arrow.RecordBatch> {
  const builders = columns.map((column) => new ArrowColumn(column, ROWS_PER_GROUP));
  const fields = builders.map((builder) => builder.field);
  const schema = new arrow.Schema(fields);
  const full: arrow.RecordBatch[] = [];
  let rows = 0;
  let copyBytes = 0;
  const finish = (): arrow.RecordBatch => {
    const children = builders.map((builder) => builder.finish());
    const struct = arrow.makeData({ type: new arrow.Struct(fields), length: rows, nullCount: 0, children });
    rows = 0;
    copyBytes = 0;
    return new arrow.RecordBatch(schema, struct);
  };
  const parser = new BinaryCopyRows(columns.length, {
    row(buffer, starts, lengths) {
      for (let index = 0; index < builders.length; index++)
        builders[index].append(buffer, starts[index], lengths[index]);
      if (++rows === ROWS_PER_GROUP) full.push(finish());
    },
  });
  let sent = false;
  for await (const chunk of copy) {
    parser.push(chunk);
    copyBytes += chunk.length;
    if (copyBytes >= COPY_BYTES_PER_GROUP && rows > 0) full.push(finish());
    for (let batch = full.shift(); batch; batch = full.shift()) {
      sent = true;
      yield batch;
    }
  }
  if (!parser.complete) throw new Error('The table copy ended early');
  if (rows > 0 || !sent) yield finish();
}
