import { ClientRequest, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { assetCount, expectNoIngestConnections, orphanDatasetTables } from '../factories/asset.factory';
import { createUser } from '../factories/user.factory';
import { createIsolatedTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

const BOUNDARY = '----dm-test-boundary';

async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The ingest connection while it is receiving COPY data. */
async function copyInProgress(testApp: TestApp): Promise<{ pid: number } | undefined> {
  const rows: { pid: number }[] = await testApp.dataSource.query(
    `SELECT pid FROM pg_stat_activity
      WHERE application_name = 'dataset-ingest' AND datname = current_database() AND query LIKE 'COPY%'`,
  );
  return rows[0];
}

describe('an interrupted upload leaves nothing behind', () => {
  let testApp: TestApp;
  let port: number;
  let cookie: string;
  let uploaderId: string;

  beforeAll(async () => {
    // Its own database: its long COPYs must not meet other suites' checks of open ingest connections.
    testApp = await createIsolatedTestApp('dm_interrupted');
    const server = testApp.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    const user = await createUser(testApp.dataSource);
    uploaderId = user.id;
    const login = await testApp.http
      .post('/api/users/login')
      .set('Origin', TEST_ORIGIN)
      .send({ email: user.email, password: user.password })
      .expect(200);
    cookie = (login.headers['set-cookie'] as unknown as string[])
      .map((entry) => entry.split(';')[0])
      .join('; ');
  });
  afterAll(() => testApp.close());

  /**
   * Starts a multipart upload that sends only the first part of a large file. It declares the
   * large length, or with `chunked` none, so `finishUpload` can still close the form.
   */
  function startUpload(onResponse: (status: number) => void, chunked = false): ClientRequest {
    const head = Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="title"\r\n\r\nInterrupted\r\n` +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\n` +
        'name,amount\n',
    );
    const request = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/assets/upload-csv',
      headers: {
        Origin: TEST_ORIGIN,
        Cookie: cookie,
        'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
        ...(chunked ? {} : { 'Content-Length': String(50 * 1024 * 1024) }),
      },
    });
    request.on('response', (response) => {
      onResponse(response.statusCode ?? 0);
      response.resume();
    });
    request.on('error', () => undefined);
    request.write(head);
    // More than the ingest's type sample (4 MB), so the COPY is under way.
    request.write(Buffer.from('row value,1\n'.repeat(450_000)));
    return request;
  }

  it('when the client goes away mid-stream: no asset, no table, no open transaction', async () => {
    const request = startUpload(() => undefined);
    await waitFor(async () => (await copyInProgress(testApp)) !== undefined, 'the COPY to start');
    request.destroy();
    await expectNoIngestConnections(testApp);
    expect(await assetCount(testApp.dataSource, uploaderId)).toBe(0);
    expect(await orphanDatasetTables(testApp.dataSource)).toEqual([]);
  });

  it('when the ingest connection dies mid-stream (as when the server is killed): Postgres keeps nothing', async () => {
    const request = startUpload(() => undefined);
    await waitFor(async () => (await copyInProgress(testApp)) !== undefined, 'the COPY to start');
    const copy = await copyInProgress(testApp);
    await testApp.dataSource.query(`SELECT pg_terminate_backend($1)`, [copy!.pid]);
    await expectNoIngestConnections(testApp);
    expect(await assetCount(testApp.dataSource, uploaderId)).toBe(0);
    expect(await orphanDatasetTables(testApp.dataSource)).toEqual([]);
    request.destroy();
  });

  it('when the database drops the ingest connection mid-stream: the uploader is told 503, not a server error', async () => {
    let answered: (status: number) => void = () => undefined;
    const status = new Promise<number>((resolve) => (answered = resolve));
    const request = startUpload((code) => answered(code), true);
    await waitFor(async () => (await copyInProgress(testApp)) !== undefined, 'the COPY to start');
    const copy = await copyInProgress(testApp);
    await testApp.dataSource.query(`SELECT pg_terminate_backend($1)`, [copy!.pid]);
    // The browser sends the rest of the file before it reads the answer.
    request.end(Buffer.from(`row value,2\n\r\n--${BOUNDARY}--\r\n`));
    expect(await status).toBe(503);
    await expectNoIngestConnections(testApp);
    expect(await assetCount(testApp.dataSource, uploaderId)).toBe(0);
    expect(await orphanDatasetTables(testApp.dataSource)).toEqual([]);
  });

  it('keeps working for the next upload afterwards', async () => {
    const user = await createUser(testApp.dataSource);
    const agent = testApp.agent();
    await agent
      .post('/api/users/login')
      .set('Origin', TEST_ORIGIN)
      .send({ email: user.email, password: user.password })
      .expect(200);
    await agent
      .post('/api/assets/upload-csv')
      .set('Origin', TEST_ORIGIN)
      .field('title', 'After')
      .attach('file', Buffer.from('a\n1\n'), 'a.csv')
      .expect(201);
  });
});
