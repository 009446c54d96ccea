import { createServer, Server } from 'node:http';
import { AddressInfo, connect, Socket } from 'node:net';
import { JSON_BODY_LIMIT_BYTES } from '../../src/common/body-limits';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

/** Past this, the server is still reading a body it should have refused long ago. */
const GIVE_UP_AFTER_BYTES = 64 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 'x');

interface StreamOutcome {
  /** Body bytes the socket took before the server ended the exchange (bounded by kernel buffers). */
  sentBytes: number;
  answer: string;
  /** The server closed the connection (rather than the sender giving up). */
  closedByServer: boolean;
}

function openRequest(port: number, path: string): Socket {
  const socket = connect(port, '127.0.0.1');
  socket.write(
    [
      `POST ${path} HTTP/1.1`,
      'Host: 127.0.0.1',
      'Content-Type: application/json',
      'Transfer-Encoding: chunked',
      `Origin: ${TEST_ORIGIN}`,
      '',
      '',
    ].join('\r\n'),
  );
  return socket;
}

/** A chunked body that never ends: chunks go out as fast as the socket takes them. */
function streamEndlessBody(port: number, path: string): Promise<StreamOutcome> {
  return new Promise((resolve) => {
    const socket = openRequest(port, path);
    let sentBytes = 0;
    let answer = '';
    let finished = false;
    const finish = (closedByServer: boolean) => {
      if (finished) return;
      finished = true;
      socket.destroy();
      resolve({ sentBytes, answer, closedByServer });
    };
    socket.on('data', (data: Buffer) => (answer += data.toString('utf8')));
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.write(`${(8).toString(16)}\r\n{"email"\r\n`);
    const sendMore = () => {
      while (!finished) {
        if (sentBytes >= GIVE_UP_AFTER_BYTES) return finish(false);
        sentBytes += CHUNK.length;
        const flushed = socket.write(
          Buffer.concat([Buffer.from(`${CHUNK.length.toString(16)}\r\n`), CHUNK, Buffer.from('\r\n')]),
        );
        if (!flushed) return void socket.once('drain', sendMore);
      }
    };
    sendMore();
  });
}

/** A body that sends its first bytes and then nothing more: answers the server's reply and close. */
function stallingBody(port: number, path: string): Promise<{ answer: string; closedByServer: boolean }> {
  return new Promise((resolve) => {
    const socket = openRequest(port, path);
    let answer = '';
    socket.on('data', (data: Buffer) => (answer += data.toString('utf8')));
    socket.on('close', () => resolve({ answer, closedByServer: true }));
    socket.on('error', () => undefined);
    socket.write(`8\r\n{"email"\r\n`);
  });
}

/** A body that keeps sending a byte now and then, never gaps long enough to be idle, never ending. */
function tricklingBody(port: number, path: string): Promise<{ answer: string; closedByServer: boolean }> {
  return new Promise((resolve) => {
    const socket = openRequest(port, path);
    let answer = '';
    socket.on('data', (data: Buffer) => (answer += data.toString('utf8')));
    const trickle = setInterval(() => socket.write('1\r\n \r\n'), 300);
    socket.on('close', () => {
      clearInterval(trickle);
      resolve({ answer, closedByServer: true });
    });
    socket.on('error', () => undefined);
    socket.write(`8\r\n{"email"\r\n`);
  });
}

const statusOf = (answer: string) => Number(answer.match(/^HTTP\/1\.1 (\d{3})/)?.[1]);
const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('{')));

describe('request bodies are refused as soon as they pass their limit or stall', () => {
  let testApp: TestApp;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    testApp = await createTestApp({ REQUEST_BODY_IDLE_SECONDS: '1' });
    server = createServer(testApp.app.getHttpAdapter().getInstance());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await testApp.close();
  });

  it('answers 413 to an endless chunked login body and closes the connection without reading on', async () => {
    const outcome = await streamEndlessBody(port, '/api/users/login');
    expect(outcome.closedByServer).toBe(true);
    expect(statusOf(outcome.answer)).toBe(413);
    expect(outcome.answer).toMatch(/\r\nConnection: close\r\n/i);
    expect(bodyOf(outcome.answer)).toEqual({
      error: 'The request body is too large (at most 2 MB).',
      message: 'The request body is too large (at most 2 MB).',
      statusCode: 413,
    });
    // What the socket took beyond the limit sits in the two kernels' buffers, never in the app.
    expect(outcome.sentBytes).toBeLessThan(JSON_BODY_LIMIT_BYTES + 16 * 1024 * 1024);
  });

  it('answers 408 to a body that stops sending, after the configured idle time, and closes', async () => {
    const outcome = await stallingBody(port, '/api/users/login');
    expect(outcome.closedByServer).toBe(true);
    expect(statusOf(outcome.answer)).toBe(408);
    expect(bodyOf(outcome.answer)).toEqual({
      error: 'The request body stopped arriving (nothing for 1 s).',
      message: 'The request body stopped arriving (nothing for 1 s).',
      statusCode: 408,
    });
  });

  it('answers 408 to a body that keeps trickling past its whole-body deadline (4 idle periods)', async () => {
    const outcome = await tricklingBody(port, '/api/users/login');
    expect(outcome.closedByServer).toBe(true);
    expect(statusOf(outcome.answer)).toBe(408);
    expect(bodyOf(outcome.answer).message).toBe('The request body took too long to arrive (more than 4 s).');
  });
});
