import {
  DuckDBDateValue,
  DuckDBDecimalValue,
  DuckDBInstance,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
} from '@duckdb/node-api';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decimalText } from './read-parquet';

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
 * arrow-rs, with the same exact values. DuckDB reads files, so the bytes go to a temporary one.
 */
export async function readParquetWithDuckDb(body: Buffer): Promise<Array<Record<string, unknown>>> {
  const folder = await mkdtemp(join(tmpdir(), 'parquet-duckdb-'));
  const file = join(folder, 'answer.parquet');
  const instance = await DuckDBInstance.create(':memory:');
  try {
    await writeFile(file, body);
    const connection = await instance.connect();
    const reader = await connection.runAndReadAll(`SELECT * FROM read_parquet('${file}')`);
    const names = reader.columnNames();
    const rows = reader
      .getRows()
      .map((row) => Object.fromEntries(row.map((value, index) => [names[index], exactValue(value)])));
    connection.closeSync();
    return rows;
  } finally {
    instance.closeSync();
    await rm(folder, { recursive: true, force: true });
  }
}
