import * as arrow from 'apache-arrow';
import { readParquet as readWithArrowRs } from 'parquet-wasm';
import { decimalText } from './read-parquet';

/** A value of an Arrow column as read-parquet.ts gives it: exact integers, day numbers, micros, decimal text. */
function exactValue(vector: arrow.Vector, index: number): unknown {
  if (!vector.isValid(index)) return null;
  const type = vector.type as arrow.DataType;
  if (arrow.DataType.isDecimal(type)) {
    const [chunk, at] = chunkAt(vector, index);
    const words = chunk.values as Uint32Array;
    let unscaled = 0n;
    for (let word = 3; word >= 0; word--) unscaled = (unscaled << 32n) | BigInt(words[at * 4 + word]);
    return decimalText(BigInt.asIntN(128, unscaled), type.scale);
  }
  if (arrow.DataType.isDate(type) || arrow.DataType.isTimestamp(type)) {
    // The stored integer (days, or microseconds), not the milliseconds Arrow JS would round to.
    const [chunk, at] = chunkAt(vector, index);
    const raw = chunk.values[at] as number | bigint;
    return arrow.DataType.isDate(type) ? raw : BigInt(raw);
  }
  if (arrow.DataType.isInt(type)) return BigInt(vector.get(index) as number | bigint);
  return vector.get(index);
}

function chunkAt(vector: arrow.Vector, index: number): [arrow.Data, number] {
  let at = index;
  for (const data of vector.data) {
    if (at < data.length) return [data, at + data.offset];
    at -= data.length;
  }
  throw new Error(`row ${index} is past the column's end`);
}

/**
 * Reads a Parquet file with arrow-rs (the Rust Arrow project's reader, compiled to WebAssembly):
 * a second reader, independent of the writer and of hyparquet, with the same exact values.
 */
export function readParquetWithArrowRs(body: Buffer): Array<Record<string, unknown>> {
  const table = arrow.tableFromIPC(readWithArrowRs(new Uint8Array(body)).intoIPCStream());
  const rows: Array<Record<string, unknown>> = [];
  for (let index = 0; index < table.numRows; index++) {
    const row: Record<string, unknown> = {};
    for (const field of table.schema.fields) row[field.name] = exactValue(table.getChild(field.name)!, index);
    rows.push(row);
  }
  return rows;
}
