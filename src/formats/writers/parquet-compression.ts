import { BadRequestException } from '@nestjs/common';
import { compress as zstdCompress, init as loadZstd } from '@bokuweb/zstd-wasm';
import { gzipSync } from 'node:zlib';
import { snappyCompress } from './snappy';

/**
 * How a Parquet file's pages are compressed, as a client may ask (`compression=`). Snappy, the
 * default, is what every Parquet reader handles; ZSTD (in WebAssembly: this Node.js has no zstd
 * in its zlib before 22.15) and gzip are smaller, and every current reader handles them too.
 */
export const PARQUET_COMPRESSIONS = ['snappy', 'zstd', 'gzip', 'none'] as const;
export type ParquetCompression = (typeof PARQUET_COMPRESSIONS)[number];
export const DEFAULT_PARQUET_COMPRESSION: ParquetCompression = 'snappy';
export const PARQUET_COMPRESSION_MESSAGE = 'compression must be snappy, zstd, gzip or none';
export const COMPRESSION_ONLY_FOR_PARQUET =
  'compression applies to format=parquet; other formats are compressed for a client that sends Accept-Encoding: gzip';
export const PARQUET_COMPRESSION_DESCRIPTION =
  'For format=parquet: how the pages are compressed, snappy (default), zstd, gzip or none';

/** The codec's name in the file's metadata (parquet.thrift's CompressionCodec). */
export type ParquetCodecName = 'SNAPPY' | 'ZSTD' | 'GZIP' | 'UNCOMPRESSED';

/** gzip's fastest level, as for the API's gzipped streams: still smaller than Snappy. */
const GZIP_LEVEL = 1;
/**
 * zstd's fastest level: already smaller than gzip's files, at about the CPU of gzip's level 1
 * (docs/performance.md); level 3 measured 2% smaller on the bench's pages.
 */
const ZSTD_LEVEL = 1;

/**
 * zstd's WebAssembly module, loaded once per thread (a few milliseconds) before any page uses it;
 * only ever through `codecReady`: loading it twice leaves its functions and memory apart.
 */
let zstdLoaded: Promise<void> | undefined;

/** Settles once `compression`'s codec can run on this thread: only zstd has anything to load. */
export function codecReady(compression: ParquetCompression): Promise<void> {
  if (compression !== 'zstd') return Promise.resolve();
  zstdLoaded ??= loadZstd();
  return zstdLoaded;
}

export interface PageCodec {
  name: ParquetCodecName;
  /** A page body's parts compressed as one, in a buffer of its own (so it can move between threads). */
  compress(parts: Uint8Array[], byteLength: number): Uint8Array;
}

export function pageCodec(compression: ParquetCompression): PageCodec | undefined {
  switch (compression) {
    case 'snappy':
      return {
        name: 'SNAPPY',
        compress: (parts, length) => ownBuffer(snappyCompress(joined(parts, length))),
      };
    case 'zstd':
      return {
        name: 'ZSTD',
        // Its answer is a copy out of the WebAssembly memory, alone in its buffer.
        compress: (parts, length) => ownBuffer(zstdCompress(joined(parts, length), ZSTD_LEVEL)),
      };
    case 'gzip':
      return {
        name: 'GZIP',
        compress: (parts, length) => ownBuffer(gzipSync(joined(parts, length), { level: GZIP_LEVEL })),
      };
    case 'none':
      return undefined;
  }
}

/**
 * Where a page's parts are joined before compression: kept from page to page on this thread
 * (every codec reads its input before answering, in a buffer of its own), rather than a new
 * buffer per page whose garbage grew the process by tens of megabytes before it was collected.
 */
let joinScratch = new Uint8Array(0);

function joined(parts: Uint8Array[], byteLength: number): Uint8Array {
  if (parts.length === 1) return parts[0];
  if (joinScratch.length < byteLength) joinScratch = new Uint8Array(Math.ceil(byteLength * 1.125));
  const whole = joinScratch.subarray(0, byteLength);
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.length;
  }
  return whole;
}

/**
 * The bytes alone in their buffer: a codec's answer may lie in a larger one (a growing writer's)
 * or, when small, in Node's shared pool, which must not move to another thread.
 */
function ownBuffer(bytes: Uint8Array): Uint8Array {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length) return bytes;
  return new Uint8Array(bytes);
}

/** The pages' compression of an answer in `format`: refused (400) when asked of any format but Parquet. */
export function answerCompression(
  format: string,
  compression: ParquetCompression | undefined,
): ParquetCompression | undefined {
  if (compression !== undefined && format !== 'parquet')
    throw new BadRequestException(COMPRESSION_ONLY_FOR_PARQUET);
  return compression;
}
