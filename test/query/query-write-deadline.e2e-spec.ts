import { Logger } from '@nestjs/common';
import { request as httpRequest } from 'node:http';
import { connect, Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { QueryRoles } from '../../src/query/run/query-roles.service';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

/** Small, so the attack ends quickly; the answer's deadline is this plus a grace of seconds. */
const QUERY_TIMEOUT_MS = 2_000;
/** The limit, its grace and room for a busy machine: far below "for ever". */
const BOUND_MS = QUERY_TIMEOUT_MS + 15_000;

/**
 * A client that sends a query and never reads its answer: PostgreSQL waits to write to us
 * (ClientWrite, where its statement limit does not fire) and we wait for the client. The answer's
 * deadline ends the statement, its transaction and its locks, so the owner's delete goes through.
 */
describe('POST /api/query: a client that never reads holds nothing past the time limit', () => {
  let testApp: TestApp;
  let server: Server;
  let owner: Awaited<ReturnType<typeof createLoggedInUser>>;
  let key: string;
  let login: string;

  beforeAll(async () => {
    testApp = await createTestApp({ QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS) });
    owner = await createLoggedInUser(testApp);
    key = (
      await owner.agent
        .post('/api/dev/apikey')
        .set('Origin', TEST_ORIGIN)
        .send({ email: owner.user.email })
        .expect(200)
    ).body.api_key;
    login = await testApp.app.get(QueryRoles).userRole(owner.user.id);
    server = testApp.app.getHttpServer();
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  });
  afterAll(async () => {
    await new Promise((closed) => server.close(closed));
    await testApp.close();
  });

  /** The user's statements in the database, and what each waits on. */
  const backends = async (): Promise<Array<{ pid: number; wait_event: string | null }>> =>
    testApp.dataSource.query(`SELECT pid, wait_event FROM pg_stat_activity WHERE usename = $1`, [login]);

  const waitFor = async (condition: () => Promise<boolean>, withinMs: number, what: string) => {
    const deadline = Date.now() + withinMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`${what} within ${withinMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  /** Sends the query on a raw socket that reads nothing (the kernel's buffers fill, then ours). */
  const sendAndNeverRead = (body: object): Socket => {
    const { port } = server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.pause();
    const json = JSON.stringify(body);
    socket.write(
      `POST /api/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
        `X-Api-Key: ${key}\r\nContent-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`,
    );
    return socket;
  };

  /** Everything the socket got, read once the server is done with it; the promise ends with the connection. */
  const readToEnd = (socket: Socket): Promise<Buffer> =>
    new Promise((ended) => {
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('close', () => ended(Buffer.concat(chunks)));
      socket.resume();
    });

  it.each(['csv', 'json'])(
    'format=%s: the statement ends within the limit, the owner deletes the dataset meanwhile, the answer is cut',
    async (format) => {
      const datasetId = await uploadDataset(owner.agent, { is_public: 'false' });
      const table = (await owner.agent.get(`/api/assets/${datasetId}`).expect(200)).body.readable_name;
      // Megabytes of answer, far more than the socket buffers hold.
      const sql = `SELECT d.name, repeat(md5(g::text), 30) AS filler FROM ${table} d, generate_series(1, 200000) g`;
      const sentAt = Date.now();
      const socket = sendAndNeverRead({ sql, format });
      try {
        await waitFor(
          async () => (await backends()).some((backend) => backend.wait_event === 'ClientWrite'),
          BOUND_MS,
          'the statement did not wait on its client',
        );
        // The owner's delete needs the table's lock, which the statement holds until it ends.
        const deleted = owner.agent.delete(`/api/assets/${datasetId}`).set('Origin', TEST_ORIGIN);
        await waitFor(
          async () => (await backends()).length === 0,
          BOUND_MS,
          'the statement still held its connection',
        );
        expect(Date.now() - sentAt).toBeLessThan(BOUND_MS);
        expect((await deleted).status).toBe(200);
        // A chunked answer that is complete ends with its last, empty chunk: this one was cut.
        const answer = await readToEnd(socket);
        expect(answer.subarray(0, 15).toString()).toBe('HTTP/1.1 200 OK');
        expect(answer.subarray(-5).toString()).not.toBe('0\r\n\r\n');
        // The history says why, in the words of the time limit.
        const history = (await owner.agent.get('/api/query/history').expect(200)).body;
        expect(history[0]).toMatchObject({
          sql,
          error: `The query ran longer than ${QUERY_TIMEOUT_MS / 1000} s and was stopped`,
        });
      } finally {
        socket.destroy();
      }
    },
    BOUND_MS * 3,
  );

  it(
    'a client that reads slowly: the statement ends within the limit and the answer is cut',
    async () => {
      const sql = `SELECT g, repeat(md5(g::text), 30) AS filler FROM generate_series(1, 200000) g`;
      const sentAt = Date.now();
      const socket = sendAndNeverRead({ sql, format: 'csv' });
      // What the socket holds, taken ten times a second: a trickle.
      const trickle = setInterval(() => socket.read(), 100);
      try {
        await waitFor(async () => (await backends()).length > 0, BOUND_MS, 'the statement did not start');
        await waitFor(
          async () => (await backends()).length === 0,
          BOUND_MS,
          'the statement still held its connection',
        );
        expect(Date.now() - sentAt).toBeLessThan(BOUND_MS);
        clearInterval(trickle);
        const answer = await readToEnd(socket);
        expect(answer.subarray(-5).toString()).not.toBe('0\r\n\r\n');
      } finally {
        clearInterval(trickle);
        socket.destroy();
      }
    },
    BOUND_MS * 3,
  );

  /** Reads the whole answer as it comes; resolves when the connection ends, complete or not. */
  const readAnswer = (body: object): Promise<{ status: number; complete: boolean; size: number }> =>
    new Promise((done, failed) => {
      const { port } = server.address() as AddressInfo;
      const request = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/query',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
      });
      request.on('error', failed);
      request.on('response', (response) => {
        let size = 0;
        response.on('data', (chunk: Buffer) => (size += chunk.length));
        response.on('error', () => undefined);
        response.on('close', () => done({ status: response.statusCode!, complete: response.complete, size }));
      });
      request.end(JSON.stringify(body));
    });

  it.each(['csv', 'xlsx', 'parquet'])(
    'format=%s past the time limit: the file is aborted, never complete-looking, and one line is logged',
    async (format) => {
      const warnings = jest.spyOn(Logger.prototype, 'warn');
      const errors = jest.spyOn(Logger.prototype, 'error');
      try {
        // Twenty thousand quick rows, so the file begins, then rows costing milliseconds each (a
        // count the row's own value takes part in, so it runs for every row): far fewer rows than
        // the answer's row limit, which a fast machine would otherwise reach within the time limit.
        const sql = `SELECT a AS n, (SELECT count(*)
                                       FROM generate_series(1, CASE WHEN a > 20000 THEN 300000 ELSE 1 END)) AS work
                       FROM generate_series(1, 100000) a`;
        const answer = await readAnswer({ sql, format });
        expect(answer.status).toBe(200);
        expect(answer.size).toBeGreaterThan(0);
        expect(answer.complete).toBe(false);
        // The server logs once it has seen the answer cut, which may be just after the client did.
        const cutLines = () =>
          warnings.mock.calls
            .map((call) => String(call[0]))
            .filter((line) => line.includes(`${format} query answer was cut`));
        for (const waitUntil = Date.now() + 10_000; cutLines().length === 0 && Date.now() < waitUntil;)
          await new Promise((resolve) => setTimeout(resolve, 50));
        expect(cutLines()).toEqual([expect.stringContaining(`longer than ${QUERY_TIMEOUT_MS / 1000} s`)]);
        expect(errors).not.toHaveBeenCalled();
      } finally {
        warnings.mockRestore();
        errors.mockRestore();
      }
    },
    BOUND_MS * 2,
  );
});
