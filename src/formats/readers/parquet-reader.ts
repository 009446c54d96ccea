import { asyncBufferFromFile, parquetMetadataAsync, parquetRead, snappyUncompress } from 'hyparquet';
import type { Compressors, FileMetaData, SchemaElement } from 'hyparquet/src/types.js';
import type { AssetColumn } from '../../assets/entities/asset.entity';
import { CsvRejection } from '../../assets/ingest/csv-rejection';
import { csvField, isoWallClock } from './csv-text';
import { ExpansionLimit } from './expansion-limit';

/** Rows read from the file at once: a row group can be large, a slice of it is not. */
const ROWS_PER_READ = 10_000;
/**
 * Largest page the reader unpacks: writers cut pages at about 1 MB; the size a page header
 * declares is allocated before a byte is unpacked, so it is checked first.
 */
const MAX_PAGE_BYTES = 256 * 1024 * 1024;

/** The column type for a Parquet column, from its physical and logical type. */
export function parquetColumnType(element: SchemaElement): AssetColumn['type'] {
  const logical = element.logical_type;
  if (logical?.type === 'DATE' || element.converted_type === 'DATE') return 'date';
  if (logical?.type === 'TIMESTAMP') return logical.isAdjustedToUTC ? 'timestamptz' : 'timestamp';
  if (element.converted_type === 'TIMESTAMP_MILLIS' || element.converted_type === 'TIMESTAMP_MICROS') {
    return 'timestamptz';
  }
  if (element.type === 'INT96') return 'timestamp';
  if (logical?.type === 'DECIMAL' || element.converted_type === 'DECIMAL') return 'numeric';
  if (element.type === 'BOOLEAN') return 'boolean';
  if (element.type === 'INT32' || element.type === 'INT64') return 'integer';
  if (element.type === 'FLOAT' || element.type === 'DOUBLE') return 'numeric';
  return 'text';
}

/** A value as text for canonical CSV in a column of `type`. */
function valueText(value: unknown, type: AssetColumn['type']): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) {
    if (type === 'date') return value.toISOString().slice(0, 10);
    return type === 'timestamptz' ? value.toISOString() : isoWallClock(value);
  }
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
    return String(value);
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  return JSON.stringify(value, (_key, inner: unknown) =>
    typeof inner === 'bigint' ? inner.toString() : inner,
  );
}

/**
 * A .parquet file as canonical CSV, its header the column names; `types` receives the column
 * types the file declares before the first chunk is handed out. Only flat files: a nested column
 * (a list, map or struct) is refused.
 */
export async function* parquetAsCsv(
  path: string,
  types: { columnTypes?: AssetColumn['type'][] },
  maxExpandedBytes: number,
): AsyncGenerator<Buffer> {
  const file = await asyncBufferFromFile(path);
  const limit = new ExpansionLimit('parquet', file.byteLength, maxExpandedBytes);
  const metadata = await parquetMetadataAsync(file);
  const columns = metadata.schema.slice(1);
  if (columns.some((column) => column.num_children !== undefined && column.num_children > 0)) {
    throw new CsvRejection(
      'The Parquet file has nested columns (lists, maps or structs); only flat tables can be loaded.',
    );
  }
  checkDeclaredSizes(metadata, columns.length, limit);
  const compressors = pageSizeChecked(Math.min(MAX_PAGE_BYTES, limit.unpackedBytes), limit);
  const columnTypes = columns.map(parquetColumnType);
  types.columnTypes = columnTypes;
  yield Buffer.from(columns.map((column) => csvField(column.name)).join(',') + '\n');
  const rowCount = Number(metadata.num_rows);
  for (let rowStart = 0; rowStart < rowCount; rowStart += ROWS_PER_READ) {
    let text = '';
    await parquetRead({
      file,
      metadata,
      rowStart,
      rowEnd: Math.min(rowStart + ROWS_PER_READ, rowCount),
      rowFormat: 'array',
      compressors,
      onComplete: (rows: unknown[][]) => {
        for (const row of rows) {
          text += row.map((value, index) => csvField(valueText(value, columnTypes[index]))).join(',') + '\n';
        }
      },
    });
    yield Buffer.from(text);
  }
}

/**
 * Refuses a file whose footer declares more than the limit allows before any page is read: more
 * rows than its row groups hold, rows whose CSV text (at least a separator per value) would pass
 * the table limit, or column chunks that unpack to more than the file may.
 */
function checkDeclaredSizes(metadata: FileMetaData, columnCount: number, limit: ExpansionLimit): void {
  const rows = metadata.num_rows;
  const groupRows = metadata.row_groups.reduce((sum, group) => sum + group.num_rows, 0n);
  if (rows < 0n || groupRows !== rows) {
    throw new CsvRejection(
      `The Parquet file declares ${rows} rows but its row groups hold ${groupRows}; it is damaged.`,
    );
  }
  if (rows * BigInt(Math.max(columnCount, 1)) > BigInt(limit.maxBytes)) throw limit.tableTooLarge();
  let unpacked = 0n;
  for (const group of metadata.row_groups) {
    for (const chunk of group.columns) unpacked += chunk.meta_data?.total_uncompressed_size ?? 0n;
  }
  if (unpacked > BigInt(limit.unpackedBytes)) throw limit.unpackedTooLarge();
}

/**
 * The reader's Snappy decompression, after checking the size a page header declares (which the
 * footer's totals do not bind). Other codecs stay unsupported and the file unreadable.
 */
function pageSizeChecked(maxPageBytes: number, limit: ExpansionLimit): Compressors {
  return {
    SNAPPY(input, outputLength) {
      if (outputLength > maxPageBytes) throw limit.unpackedTooLarge();
      const output = new Uint8Array(outputLength);
      snappyUncompress(input, output);
      return output;
    },
  };
}
