import { parquetMetadata, parquetRead } from 'hyparquet';
import type { Compressors, FileMetaData, SchemaElement } from 'hyparquet';
import { decompress as zstdDecompress } from '@bokuweb/zstd-wasm';
import { gunzipSync } from 'node:zlib';
import { codecReady } from '../../../src/formats/writers/parquet-compression';

/**
 * hyparquet reads Snappy itself; gzip pages go through Node's zlib and zstd pages through zstd's
 * WebAssembly build, as its documentation suggests for codecs it leaves to the caller.
 */
const COMPRESSORS: Compressors = {
  GZIP: (input: Uint8Array) => new Uint8Array(gunzipSync(input)),
  ZSTD: (input: Uint8Array) => zstdDecompress(input),
};

/** A column as the file declares it, for checking logical types. */
export interface DeclaredColumn {
  name: string;
  type?: string;
  logicalType?: unknown;
  precision?: number;
  scale?: number;
}

export interface ParquetContent {
  columns: DeclaredColumn[];
  rowGroups: number;
  /** Each column chunk's codec, as the footer names it (SNAPPY, ZSTD, GZIP, UNCOMPRESSED). */
  codecs: string[];
  /** Each column's encodings in each row group, by column name: RLE_DICTIONARY when a dictionary page came first. */
  encodings: Record<string, string[][]>;
  rows: Array<Record<string, unknown>>;
}

/** Big-endian two's complement bytes (a DECIMAL stored as FIXED_LEN_BYTE_ARRAY) as a BigInt. */
function twosComplement(bytes: Uint8Array): bigint {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return bytes.length > 0 && bytes[0] & 0x80 ? value - (1n << BigInt(bytes.length * 8)) : value;
}

/** An unscaled decimal and its scale as exact text: 1250n, 2 → "12.50". */
export function decimalText(unscaled: bigint, scale: number): string {
  const digits = (unscaled < 0n ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  const text = scale > 0 ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return unscaled < 0n ? `-${text}` : text;
}

/**
 * Reads a Parquet file with hyparquet (an independent reader) without rounding anything:
 * timestamps as microseconds, dates as day numbers, decimals as their exact text.
 */
export async function readParquet(body: Buffer): Promise<ParquetContent> {
  // Loaded by the writer's own call: the app may run in this process, and a second load breaks it.
  await codecReady('zstd');
  const file = body.buffer.slice(body.byteOffset, body.byteOffset + body.length) as ArrayBuffer;
  const metadata = parquetMetadata(file);
  const leaves = metadata.schema.slice(1);
  const decimals = new Map<string, number>();
  // Read DECIMAL columns as their raw integers: hyparquet would turn them into rounded doubles.
  const raw: FileMetaData = {
    ...metadata,
    schema: metadata.schema.map((element: SchemaElement) => {
      if (element.converted_type !== 'DECIMAL') return element;
      decimals.set(element.name, element.scale ?? 0);
      return { ...element, converted_type: undefined, logical_type: undefined };
    }),
  };
  const rows = await new Promise<Array<Record<string, unknown>>>((resolve, reject) => {
    parquetRead({
      file,
      metadata: raw,
      rowFormat: 'object',
      compressors: COMPRESSORS,
      parsers: {
        timestampFromMicroseconds: (micros: bigint) => micros,
        timestampFromMilliseconds: (millis: bigint) => millis,
        timestampFromNanoseconds: (nanos: bigint) => nanos,
        dateFromDays: (days: number) => days,
        stringFromBytes: (bytes: Uint8Array) => bytes && new TextDecoder().decode(bytes),
      },
      onComplete: (data: unknown) => resolve(data as Array<Record<string, unknown>>),
    } as never).catch(reject);
  });
  for (const row of rows) {
    for (const [name, scale] of decimals) {
      const value = row[name];
      if (value === null || value === undefined) continue;
      const unscaled = value instanceof Uint8Array ? twosComplement(value) : BigInt(value as number | bigint);
      row[name] = decimalText(unscaled, scale);
    }
  }
  return {
    columns: leaves.map((element: SchemaElement) => ({
      name: element.name,
      type: element.type,
      logicalType: element.logical_type,
      precision: element.precision,
      scale: element.scale,
    })),
    rowGroups: metadata.row_groups.length,
    codecs: metadata.row_groups.flatMap((group) => group.columns.map((chunk) => chunk.meta_data!.codec)),
    encodings: Object.fromEntries(
      leaves.map((element: SchemaElement, index: number) => [
        element.name,
        metadata.row_groups.map((group) => group.columns[index].meta_data!.encodings as string[]),
      ]),
    ),
    rows,
  };
}
