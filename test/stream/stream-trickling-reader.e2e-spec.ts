import type { Server } from 'node:http';
import { connect, Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { createDataset, createUserWithApiKey, grantAccess } from './stream.factory';

/** Bytes the reader takes per look: enough that it never counts as stalled, far too few to finish. */
const TRICKLE_BYTES = 4096;
const TRICKLE_EVERY_MS = 100;

/**
 * A holder who reads a stream slowly, but never stops (so it is never cut as stalled), could hold
 * the table's lock for the stream's hour: the owner's replace or delete waited on it until the
 * app's answer limit failed it with 503 (stream after stream, the owner could never delete), and
 * while it waited every other reader of the dataset queued behind it. The owner's action now ends
 * such a stream after the same short wait as users' queries, and the holder sees it cut.
 */
describe('GET /api/stream: a slow reader does not hold the owner’s delete', () => {
  let testApp: TestApp;
  let server: Server;

  beforeAll(async () => {
    testApp = await createTestApp();
    server = testApp.app.getHttpServer();
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  });
  afterAll(async () => {
    await new Promise((closed) => server.close(closed));
    await testApp.close();
  });

  /** The COPY statements reading `table`, and what each waits on. */
  const copies = async (table: string): Promise<Array<{ wait_event: string | null }>> =>
    testApp.dataSource.query(
      `SELECT wait_event FROM pg_stat_activity WHERE query LIKE 'COPY%' AND query LIKE '%' || $1 || '%' AND pid <> pg_backend_pid()`,
      [table],
    );

  it('the owner’s delete ends the stream of a holder who trickles, and the holder sees the answer cut', async () => {
    const owner = await createLoggedInUser(testApp);
    const holder = await createUserWithApiKey(testApp.dataSource);
    const dataset = await createDataset(testApp.dataSource, {
      ownerId: owner.user.id,
      isPublic: true,
      columns: [
        { name: 'n', label: 'n', sqlType: 'integer', type: 'integer' },
        { name: 'filler', label: 'filler', sqlType: 'text', type: 'text' },
      ],
      rowsSql: `SELECT g, repeat(md5(g::text), 8) FROM generate_series(1, 150000) g`,
    });
    await grantAccess(testApp.dataSource, holder.user.id, dataset.id);

    const { port } = server.address() as AddressInfo;
    const socket: Socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.pause();
    let received = 0;
    let ended = false;
    socket.on('close', () => (ended = true));
    socket.write(
      `GET /api/stream/data/${dataset.id}?format=csv HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Api-Key: ${holder.apiKey}\r\n\r\n`,
    );
    const trickle = setInterval(() => {
      const piece = socket.read(TRICKLE_BYTES) as Buffer | null;
      if (piece) received += piece.length;
    }, TRICKLE_EVERY_MS);
    try {
      while (!(await copies(dataset.tableName)).some((copy) => copy.wait_event === 'ClientWrite'))
        await new Promise((resolve) => setTimeout(resolve, 100));
      const receivedBefore = received;
      const deleted = await owner.agent.delete(`/api/assets/${dataset.id}`).set('Origin', TEST_ORIGIN);
      expect(deleted.status).toBe(200);
      // The delete did not wait for the stream to be read to its end: a small part of it is.
      expect(received - receivedBefore).toBeLessThan(2 * 1024 * 1024);
      expect(await copies(dataset.tableName)).toEqual([]);
      // The holder's answer is cut: the connection closes without the chunked answer's last chunk.
      clearInterval(trickle);
      socket.resume();
      const rest: Buffer[] = [];
      socket.on('data', (piece: Buffer) => rest.push(piece));
      while (!ended) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(Buffer.concat(rest).toString('latin1').endsWith('0\r\n\r\n')).toBe(false);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
  }, 60_000);
});
