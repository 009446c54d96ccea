import { createServer, request as httpRequest, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

/** The status and body of a POST that claims `claimedLength` bytes but sends only a few. */
function postClaiming(
  port: number,
  path: string,
  claimedLength: number,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const call = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Length': claimedLength, Origin: TEST_ORIGIN },
      },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    call.on('error', reject);
    call.write('{"name":"');
    // The rest of the claimed body never comes: only an answer from the header can arrive.
  });
}

describe('JSON bodies over the limit are refused from the Content-Length header', () => {
  let testApp: TestApp;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    testApp = await createTestApp();
    server = createServer(testApp.app.getHttpAdapter().getInstance());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await testApp.close();
  });

  it('answers 413 at once to a claimed 2 GB body, without waiting for it', async () => {
    const started = Date.now();
    const answer = await postClaiming(port, '/api/users/register', 2 * 1024 * 1024 * 1024);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({
      error: 'The request body is too large (at most 2 MB).',
      message: 'The request body is too large (at most 2 MB).',
      statusCode: 413,
    });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('still reads a body within the limit', async () => {
    const response = await testApp.http
      .post('/api/users/register')
      .set('Origin', TEST_ORIGIN)
      .send({ name: 'Within limit' })
      .expect(400);
    expect(response.body.statusCode).toBe(400);
  });
});
