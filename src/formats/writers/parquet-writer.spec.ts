import { decompress as zstdDecompress } from '@bokuweb/zstd-wasm';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { gunzipSync } from 'node:zlib';
import { availableParallelism } from 'node:os';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Worker } from 'node:worker_threads';
import { readParquetWithDuckDb } from '../../../test/stream/support/read-parquet-duckdb';
import { codecReady, type ParquetCompression } from './parquet-compression';
import { ROWS_PER_GROUP } from './parquet-file';
import { busyEncoderThreads, threadsPerFile } from './parquet-encoder-threads';
import { parquetEncoder } from './parquet-writer';

/**
 * Every encoder thread a file took, in order (a file's filling thread, then its writing one): the
 * real pool, watched so a test can stop one; a test may let a file take fewer.
 */
const mockTakenThreads: Worker[] = [];
const mockPool = { threadsPerFile: 2 };
jest.mock('./parquet-encoder-threads', () => {
  const pool = jest.requireActual('./parquet-encoder-threads');
  return {
    ...pool,
    // A file takes two threads (or the test's number) whatever the machine's load.
    takeEncoderThreads: () => {
      const threads: Worker[] = pool.takeEncoderThreads(mockPool.threadsPerFile);
      mockTakenThreads.push(...threads);
      return threads;
    },
  };
});

/** Resolves once `thread` has ended. */
function ended(thread: Worker): Promise<void> {
  return new Promise((resolve) => (thread.threadId === -1 ? resolve() : thread.once('exit', () => resolve())));
}

const COLUMNS = [{ name: 'note', label: 'note', pgType: 'text' }];

/** The header of a binary COPY answer, then one text field per row (null: none), then (if `complete`) the trailer. */
function binaryCopy(values: Array<string | null>, complete = true): Buffer {
  const parts = [Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)];
  for (const value of values) {
    const field = Buffer.alloc(6);
    field.writeInt16BE(1, 0);
    field.writeInt32BE(value === null ? -1 : Buffer.byteLength(value), 2);
    parts.push(field);
    if (value !== null) parts.push(Buffer.from(value));
  }
  if (complete) parts.push(Buffer.from([0xff, 0xff]));
  return Buffer.concat(parts);
}

async function encode(copy: Buffer, compression?: ParquetCompression): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await pipeline(
    Readable.from([copy]),
    parquetEncoder(COLUMNS, undefined, compression),
    async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) chunks.push(Buffer.from(chunk));
    },
  );
  return Buffer.concat(chunks);
}

/** hyparquet reads Snappy itself; zstd and gzip pages go through the codecs it leaves to the caller. */
const COMPRESSORS = {
  ZSTD: (input: Uint8Array) => zstdDecompress(input),
  GZIP: (input: Uint8Array) => new Uint8Array(gunzipSync(input)),
};

async function notes(file: Buffer): Promise<unknown[]> {
  const bytes = file.buffer.slice(file.byteOffset, file.byteOffset + file.length) as ArrayBuffer;
  const rows = await parquetReadObjects({ file: bytes, compressors: COMPRESSORS });
  return rows.map((row) => row.note);
}

/** Each column chunk's encodings, as the footer names them. */
function encodings(file: Buffer): string[][] {
  const bytes = file.buffer.slice(file.byteOffset, file.byteOffset + file.length) as ArrayBuffer;
  return parquetMetadata(bytes).row_groups.map((group) => group.columns[0].meta_data!.encodings as string[]);
}

/** Each column chunk's codec, as the footer names it. */
function codecs(file: Buffer): string[] {
  const bytes = file.buffer.slice(file.byteOffset, file.byteOffset + file.length) as ArrayBuffer;
  return parquetMetadata(bytes).row_groups.flatMap((group) =>
    group.columns.map((chunk) => chunk.meta_data!.codec),
  );
}

describe('parquetEncoder', () => {
  const values = Array.from({ length: ROWS_PER_GROUP * 2 + 5 }, (_, index) => `note ${index}`);

  // zstd's module is loaded once per thread, by the writer's own call (a second load would break it).
  beforeAll(() => codecReady('zstd'));

  it.each([
    ['snappy', 'SNAPPY'],
    ['zstd', 'ZSTD'],
    ['gzip', 'GZIP'],
    ['none', 'UNCOMPRESSED'],
  ] as const)(
    'writes pages compressed as %s, every row of several groups read back',
    async (compression, codec) => {
      const file = await encode(binaryCopy(values), compression);
      expect(new Set(codecs(file))).toEqual(new Set([codec]));
      expect(await notes(file)).toEqual(values);
    },
  );

  it('writes zstd pages on this thread too, when every encoder thread is busy', async () => {
    // One more file than cores, each taking two threads: the last is encoded on this thread, which loads zstd for it.
    const files = availableParallelism() + 1;
    const copies = Array.from({ length: files }, (_, file) => values.map((value) => `${value} of ${file}`));
    const written = await Promise.all(copies.map((copy) => encode(binaryCopy(copy), 'zstd')));
    for (const [file, copy] of copies.entries()) {
      expect(new Set(codecs(written[file]))).toEqual(new Set(['ZSTD']));
      expect(await notes(written[file])).toEqual(copy);
    }
  });

  describe('dictionary pages', () => {
    const DICTIONARY = ['PLAIN', 'RLE', 'RLE_DICTIONARY'];
    const PLAIN = ['PLAIN', 'RLE'];

    it.each(['snappy', 'zstd', 'gzip', 'none'] as const)(
      'writes indices of 9 bits across byte boundaries, nulls between them (%s), read back by hyparquet and DuckDB',
      async (compression) => {
        // 300 values, first seen in a shuffled order; every 13th row null, "" one of the values.
        const texts = Array.from({ length: 5000 }, (_, index) =>
          index % 13 === 0 ? null : index % 300 === 7 ? '' : `status ${(index * 7) % 300} é😀`,
        );
        const file = await encode(binaryCopy(texts), compression);
        expect(encodings(file)).toEqual([DICTIONARY]);
        expect(await notes(file)).toEqual(texts);
        expect((await readParquetWithDuckDb(file)).map((row) => row.note)).toEqual(texts);
      },
    );

    it('keeps PLAIN for a chunk whose dictionary would pass 1 MB, and for one of mostly distinct values', async () => {
      const long = Array.from({ length: 2400 }, (_, index) => `${index % 600} `.padEnd(2000, 'x'));
      const longFile = await encode(binaryCopy(long), 'snappy');
      expect(encodings(longFile)).toEqual([PLAIN]);
      expect(await notes(longFile)).toEqual(long);
      const distinct = await encode(binaryCopy(values), 'snappy');
      expect(encodings(distinct)).toEqual([PLAIN, PLAIN, PLAIN]);
      expect((await readParquetWithDuckDb(distinct)).map((row) => row.note)).toEqual(values);
    });

    it('decides group by group: a dictionary for the repeating group, PLAIN for the distinct one', async () => {
      const mixed = [
        ...Array.from({ length: ROWS_PER_GROUP }, (_, index) => `code ${index % 5}`),
        ...Array.from({ length: 10_000 }, (_, index) => `id ${index}`),
      ];
      const file = await encode(binaryCopy(mixed));
      expect(encodings(file)).toEqual([DICTIONARY, PLAIN]);
      expect(await notes(file)).toEqual(mixed);
      expect((await readParquetWithDuckDb(file)).map((row) => row.note)).toEqual(mixed);
    });
  });

  it('makes a Snappy file of repetitive rows several times smaller than the uncompressed one, rows alike', async () => {
    const statuses = Array.from(
      { length: 50_000 },
      (_, index) => `status ${['open', 'closed', 'pending'][index % 3]}`,
    );
    const snappy = await encode(binaryCopy(statuses), 'snappy');
    const uncompressed = await encode(binaryCopy(statuses), 'none');
    expect(uncompressed.length / snappy.length).toBeGreaterThan(5);
    expect(await notes(snappy)).toEqual(statuses);
  });

  it('writes every row of several groups in order', async () => {
    expect(await notes(await encode(binaryCopy(values)))).toEqual(values);
  });

  it('copies text of every length exactly, "" and multi-byte characters included', async () => {
    // Short values are copied four bytes at a time and then byte by byte, long ones natively.
    const alphabet = Array.from('aé😀b\u0000');
    const texts = Array.from({ length: 600 }, (_, length) =>
      Array.from({ length }, (_, at) => alphabet[(at * 7 + length) % alphabet.length]).join(''),
    );
    expect(await notes(await encode(binaryCopy(texts)))).toEqual(texts);
  });

  it('writes every row of a COPY many times the bytes in flight, rows cut at every batch boundary', async () => {
    // About 12 MB in 1 MB batches: the batches the encoder has read are filled again.
    const long = Array.from({ length: 120_000 }, (_, index) => `${index} `.padEnd(80 + (index % 17), 'x'));
    expect(await notes(await encode(binaryCopy(long)))).toEqual(long);
  });

  it('fails with the reason when the copy ends early, and the next file is whole', async () => {
    await expect(encode(binaryCopy(values, false))).rejects.toThrow('The table copy ended early');
    expect(await notes(await encode(binaryCopy(['after'])))).toEqual(['after']);
  });

  it('stops when the reader goes away after the first bytes, ending both its threads, and the next file is whole', async () => {
    mockTakenThreads.length = 0;
    const encoder = parquetEncoder(COLUMNS);
    Readable.from([binaryCopy(values)]).pipe(encoder);
    for await (const chunk of encoder) {
      expect(chunk.length).toBeGreaterThan(0);
      break;
    }
    expect(encoder.destroyed).toBe(true);
    // Given up half-way, its threads' state is unknown: they end rather than wait for another file.
    expect(mockTakenThreads).toHaveLength(2);
    await Promise.all(mockTakenThreads.map(ended));
    expect(busyEncoderThreads()).toBe(0);
    expect(await notes(await encode(binaryCopy(['again'])))).toEqual(['again']);
  });

  it('writes every row in order on one thread when only one is free, and gives it back', async () => {
    mockTakenThreads.length = 0;
    mockPool.threadsPerFile = 1;
    try {
      expect(await notes(await encode(binaryCopy(values), 'zstd'))).toEqual(values);
    } finally {
      mockPool.threadsPerFile = 2;
    }
    expect(mockTakenThreads).toHaveLength(1);
    expect(busyEncoderThreads()).toBe(0);
  });

  it('takes a second thread per file only while a core is idle', () => {
    expect(threadsPerFile(0)).toBe(2);
    expect(threadsPerFile(availableParallelism() - 1)).toBe(2);
    expect(threadsPerFile(availableParallelism())).toBe(1);
  });

  it('writes the groups of a file on two threads, in order, and gives both back', async () => {
    mockTakenThreads.length = 0;
    const many = Array.from({ length: ROWS_PER_GROUP * 5 + 3 }, (_, index) => `row ${index}`);
    const file = await encode(binaryCopy(many));
    expect(mockTakenThreads).toHaveLength(2);
    expect(await notes(file)).toEqual(many);
    expect((await readParquetWithDuckDb(file)).map((row) => row.note)).toEqual(many);
    expect(busyEncoderThreads()).toBe(0);
  });

  it('keeps the COPY’s bytes until its columns are complete, then writes them all', async () => {
    let complete!: () => void;
    const ready = new Promise<void>((resolve) => (complete = resolve));
    const chunks: Buffer[] = [];
    const writing = pipeline(
      Readable.from([binaryCopy(values)]),
      parquetEncoder(COLUMNS, ready),
      async (source: AsyncIterable<Buffer>) => {
        for await (const chunk of source) chunks.push(Buffer.from(chunk));
      },
    );
    await new Promise((later) => setTimeout(later, 50));
    // Only the file's opening magic so far: no row is read before the columns are complete.
    expect(Buffer.concat(chunks).toString()).toBe('PAR1');
    complete();
    await writing;
    expect(await notes(Buffer.concat(chunks))).toEqual(values);
  });

  it('fails the file when its columns cannot be completed', async () => {
    const failing = Promise.reject(new Error('The digits could not be counted'));
    const encoding = pipeline(
      Readable.from([binaryCopy(values)]),
      parquetEncoder(COLUMNS, failing),
      async (source: AsyncIterable<Buffer>) => {
        for await (const chunk of source) expect(chunk.length).toBeGreaterThan(0);
      },
    );
    await expect(encoding).rejects.toThrow('The digits could not be counted');
  });

  it('writes every file whole when more are written at once than there are encoder threads', async () => {
    // One more file than cores: the last is encoded on this thread, the others on two threads of their own.
    const files = availableParallelism() + 1;
    const copies = Array.from({ length: files }, (_, file) => values.map((value) => `${value} of ${file}`));
    const written = await Promise.all(copies.map((copy) => encode(binaryCopy(copy))));
    for (const [file, copy] of copies.entries()) expect(await notes(written[file])).toEqual(copy);
  });

  it.each([
    ['filling', 0],
    ['writing', 1],
  ])(
    'fails the file when its %s thread stops half-way, ends the other, and the next file is whole on others',
    async (_role, which) => {
      mockTakenThreads.length = 0;
      // Columns never complete: the threads hold the COPY's bytes until one is stopped.
      const encoding = pipeline(
        Readable.from([binaryCopy(values)]),
        parquetEncoder(COLUMNS, new Promise<void>(() => undefined)),
        async (source: AsyncIterable<Buffer>) => {
          for await (const chunk of source) expect(chunk.length).toBeGreaterThan(0);
        },
      );
      expect(mockTakenThreads).toHaveLength(2);
      const taken = [...mockTakenThreads];
      await taken[which].terminate();
      await expect(encoding).rejects.toThrow('The Parquet encoder stopped');
      await ended(taken[1 - which]);
      expect(busyEncoderThreads()).toBe(0);
      expect(await notes(await encode(binaryCopy(['after'])))).toEqual(['after']);
      expect(mockTakenThreads).toHaveLength(4);
      for (const next of mockTakenThreads.slice(2)) expect(taken).not.toContain(next);
    },
  );

  it('writes a file with the schema and no rows for an empty copy', async () => {
    expect(await notes(await encode(binaryCopy([])))).toEqual([]);
  });
});
