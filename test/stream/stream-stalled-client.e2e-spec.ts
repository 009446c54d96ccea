import { Logger } from '@nestjs/common';
import type { Server } from 'node:http';
import { connect, Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { STALLED_CLIENT } from '../../src/stream/stalled-client';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { createDataset, setApiKey } from './stream.factory';

/** Short, so the test ends quickly; the product waits minutes. */
const STALLED_MS = 2_000;
/** The limit and room for a busy machine, far below the stream's own hour. */
const BOUND_MS = STALLED_MS + 15_000;

/**
 * A stream whose client stops reading: PostgreSQL waits to write to us (where no statement limit
 * fires) and the stream waits for the client, holding a snapshot and the table's lock. The stream
 * is cut once its client has taken nothing for a while, so the owner's delete goes through.
 */
describe('GET /api/stream: a client that never reads holds nothing for long', () => {
  let testApp: TestApp;
  let server: Server;
  let owner: Awaited<ReturnType<typeof createLoggedInUser>>;
  let key: string;

  beforeAll(async () => {
    jest.replaceProperty(STALLED_CLIENT, 'limitMs', STALLED_MS);
    testApp = await createTestApp();
    owner = await createLoggedInUser(testApp);
    key = await setApiKey(testApp.dataSource, owner.user.id);
    server = testApp.app.getHttpServer();
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await new Promise((closed) => server.close(closed));
    await testApp.close();
  });

  const waitFor = async (condition: () => Promise<boolean>, withinMs: number, what: string) => {
    const deadline = Date.now() + withinMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`${what} within ${withinMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  /** The COPY statements reading `table`, and what each waits on. */
  const copies = async (table: string): Promise<Array<{ wait_event: string | null }>> =>
    testApp.dataSource.query(
      `SELECT wait_event FROM pg_stat_activity WHERE query LIKE 'COPY%' AND query LIKE '%' || $1 || '%' AND pid <> pg_backend_pid()`,
      [table],
    );

  it.each(['csv', 'json', 'parquet'])(
    'format=%s: the COPY ends soon after the client stops reading, and the owner deletes the dataset meanwhile',
    async (format) => {
      const warnings = jest.spyOn(Logger.prototype, 'warn');
      // Tens of megabytes as an answer: far more than the sockets' buffers hold.
      const dataset = await createDataset(testApp.dataSource, {
        ownerId: owner.user.id,
        isPublic: false,
        columns: [
          { name: 'n', label: 'n', sqlType: 'integer', type: 'integer' },
          { name: 'filler', label: 'filler', sqlType: 'text', type: 'text' },
        ],
        rowsSql: `SELECT g, repeat(md5(g::text), 8) FROM generate_series(1, 150000) g`,
      });
      const { port } = server.address() as AddressInfo;
      const socket: Socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.pause();
      socket.write(
        `GET /api/stream/data/${dataset.id}?format=${format} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Api-Key: ${key}\r\n\r\n`,
      );
      try {
        await waitFor(
          async () => (await copies(dataset.tableName)).some((copy) => copy.wait_event === 'ClientWrite'),
          BOUND_MS,
          'the COPY did not wait on its client',
        );
        const stalledAt = Date.now();
        const deleted = owner.agent.delete(`/api/assets/${dataset.id}`).set('Origin', TEST_ORIGIN);
        await waitFor(
          async () => (await copies(dataset.tableName)).length === 0,
          BOUND_MS,
          'the COPY still ran',
        );
        expect(Date.now() - stalledAt).toBeLessThan(BOUND_MS);
        expect((await deleted).status).toBe(200);
        expect(warnings.mock.calls.map((call) => String(call[0]))).toContain(
          `A stream was cut: its client took nothing for ${STALLED_MS / 1000} s`,
        );
      } finally {
        socket.destroy();
        warnings.mockRestore();
      }
    },
    BOUND_MS * 3,
  );
});
