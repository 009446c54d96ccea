import {
  DuckDBDateValue,
  DuckDBDecimalValue,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
} from '@duckdb/node-api';
import { decimalText } from './read-parquet';
import { withDuckDbFile } from './read-with-duckdb';

/** A DuckDB value as read-parquet.ts gives it: exact integers, day numbers, micros, decimal text. */
function exactValue(value: unknown): unknown {
  if (value instanceof DuckDBDecimalValue) return decimalText(value.value, value.scale);
  if (value instanceof DuckDBDateValue) return value.days;
  if (value instanceof DuckDBTimestampValue || value instanceof DuckDBTimestampTZValue) return value.micros;
  return value;
}

/**
 * Reads a Parquet file with DuckDB (its own C++ reader, as an analyst's
 * `read_parquet('file.parquet')` does): a third reader, independent of the writer, hyparquet and
 * arrow-rs, with the same exact values.
 */
export function readParquetWithDuckDb(body: Buffer): Promise<Array<Record<string, unknown>>> {
  return withDuckDbFile(body, 'answer.parquet', async (connection, path) => {
    const reader = await connection.runAndReadAll(`SELECT * FROM read_parquet(${path})`);
    const names = reader.columnNames();
    return reader
      .getRows()
      .map((row) => Object.fromEntries(row.map((value, index) => [names[index], exactValue(value)])));
  });
}
