import type { Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Response } from 'supertest';
import type { Worker } from 'node:worker_threads';
import { busyEncoderThreads } from '../../src/formats/writers/parquet-encoder-threads';
import { createTestApp, TestApp } from '../support/test-app';
import { createDataset, createUserWithApiKey } from './stream.factory';
import { readParquet } from './support/read-parquet';

/**
 * The threads each file took (watched, from the real pool); a file takes the test's number,
 * whatever the machine's load, so both ways of encoding are tried.
 */
const mockTaken: Worker[] = [];
const mockPool = { threadsPerFile: 2 };
jest.mock('../../src/formats/writers/parquet-encoder-threads', () => {
  const pool = jest.requireActual('../../src/formats/writers/parquet-encoder-threads');
  return {
    ...pool,
    takeEncoderThreads: () => {
      const threads: Worker[] = pool.takeEncoderThreads(mockPool.threadsPerFile);
      mockTaken.push(...threads);
      return threads;
    },
  };
});

/** Room for a busy machine: the work stops within a moment of the client leaving. */
const BOUND_MS = 15_000;
const ROWS = 150_000;

function binary(response: Response, callback: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  response.on('data', (chunk: Buffer) => chunks.push(chunk));
  response.on('end', () => callback(null, Buffer.concat(chunks)));
}

/**
 * A client that leaves half-way through a Parquet download: the COPY ends and the file's encoder
 * threads end too (none left working for nobody), and the next download is whole.
 */
describe('GET /api/stream/data/{id}?format=parquet: a client that leaves stops the work', () => {
  let testApp: TestApp;
  let server: Server;
  let key: string;
  let dataset: Awaited<ReturnType<typeof createDataset>>;

  beforeAll(async () => {
    testApp = await createTestApp();
    const owner = await createUserWithApiKey(testApp.dataSource);
    key = owner.apiKey;
    // Tens of megabytes of COPY: several row groups, far more than a moment's work.
    dataset = await createDataset(testApp.dataSource, {
      ownerId: owner.user.id,
      isPublic: false,
      columns: [
        { name: 'n', label: 'n', sqlType: 'integer', type: 'integer' },
        { name: 'filler', label: 'filler', sqlType: 'text', type: 'text' },
      ],
      rowsSql: `SELECT g, repeat(md5(g::text), 8) FROM generate_series(1, ${ROWS}) g`,
    });
    server = testApp.app.getHttpServer();
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  });
  afterAll(async () => {
    await new Promise((closed) => server.close(closed));
    await testApp.close();
  });

  const waitFor = async (condition: () => Promise<boolean>, what: string) => {
    const deadline = Date.now() + BOUND_MS;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`${what} within ${BOUND_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  const copies = async (): Promise<unknown[]> =>
    testApp.dataSource.query(
      `SELECT pid FROM pg_stat_activity WHERE query LIKE 'COPY%' AND query LIKE '%' || $1 || '%' AND pid <> pg_backend_pid()`,
      [dataset.tableName],
    );

  it.each([2, 1])(
    'with %i encoder thread(s) per file: the COPY and the threads end, the next file is whole',
    async (threadsPerFile) => {
      mockPool.threadsPerFile = threadsPerFile;
      mockTaken.length = 0;
      const { port } = (server.address() as AddressInfo) ?? {};
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      const firstBytes = new Promise<void>((resolve) => socket.once('data', () => resolve()));
      socket.write(
        `GET /api/stream/data/${dataset.id}?format=parquet HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Api-Key: ${key}\r\n\r\n`,
      );
      await firstBytes;
      expect(mockTaken).toHaveLength(threadsPerFile);
      expect(busyEncoderThreads()).toBeGreaterThan(0);
      socket.destroy();

      await waitFor(async () => (await copies()).length === 0, 'the COPY still ran');
      await waitFor(async () => busyEncoderThreads() === 0, 'an encoder thread still worked');
      // Given up half-way, a thread's state is unknown: it ended rather than waiting for another file.
      for (const thread of mockTaken) expect(thread.threadId).toBe(-1);

      const whole = await testApp.http
        .get(`/api/stream/data/${dataset.id}`)
        .query({ api_key: key, format: 'parquet' })
        .buffer(true)
        .parse(binary as never)
        .expect(200);
      const parquet = await readParquet(whole.body as Buffer);
      expect(parquet.rows).toHaveLength(ROWS);
      expect(parquet.rows[ROWS - 1]).toEqual({ n: BigInt(ROWS), filler: expect.stringMatching(/^[0-9a-f]{256}$/) });
      expect(busyEncoderThreads()).toBe(0);
    },
    BOUND_MS * 4,
  );
});
