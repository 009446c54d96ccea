import { gzipSync } from 'node:zlib';
import { waitForRuns } from '../factories/connector.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { FakeUpstream, sendJson, startFakeUpstream } from './support/fake-upstream';
import { rowsOf, runToEnd } from './support/run-and-read';
import { connect } from './support/run-through-api';

/** Files served as files, spreadsheet values and answers that did not change. */
describe('connector shapes: gzip files, header rows, conditional requests', () => {
  let upstream: FakeUpstream;
  let testApp: TestApp;
  let version = 'v1';
  const zipFile = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00, 0x61, 0x62]);

  beforeAll(async () => {
    upstream = await startFakeUpstream((request, response) => {
      const path = request.url.pathname;
      if (path === '/export/items.json.gz') {
        response.writeHead(200, { 'content-type': 'application/gzip' });
        return response.end(gzipSync(JSON.stringify([{ id: 1 }, { id: 2 }])));
      }
      if (path === '/export/items.zip') {
        response.writeHead(200, { 'content-type': 'application/zip' });
        return response.end(zipFile);
      }
      if (path === '/v4/spreadsheets/sheet1/values/A1:C4') {
        return sendJson(response, {
          range: 'Sheet1!A1:C4',
          majorDimension: 'ROWS',
          values: [
            ['id', 'name', 'score'],
            ['1', 'Ada', '12.5'],
            ['2', 'Grace'],
            ['3', 'Linus', '7', 'extra'],
          ],
        });
      }
      if (path === '/catalog.json') {
        const etag = `"${version}"`;
        if (request.headers['if-none-match'] === etag) {
          response.writeHead(304, { etag });
          return response.end();
        }
        return sendJson(response, [{ id: 1, version }], 200, {
          etag,
          'last-modified': 'Tue, 14 Jan 2025 10:00:00 GMT',
        });
      }
      return sendJson(response, { message: 'Not Found' }, 404);
    });
    testApp = await createTestApp({ CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' });
  });
  afterAll(async () => {
    await testApp.close();
    await upstream.close();
  });

  const single = (operation: Record<string, unknown>) => ({
    base_url: upstream.origin,
    operations: [{ id: 'items', ...operation } as { id: string; url_path: string }],
  });

  it('unpacks a .json.gz file served as application/gzip without Content-Encoding', async () => {
    const instance = await connect(testApp, single({ url_path: '/export/items.json.gz' }));
    expect(await runToEnd(instance)).toMatchObject({ status: 'succeeded', row_count: 2 });
    expect(await rowsOf(testApp, instance.id, 'id')).toEqual([{ id: '1' }, { id: '2' }]);
  });

  it('a binary answer fails the run with its real cause, recorded, and no raw bytes in the message', async () => {
    const instance = await connect(testApp, single({ url_path: '/export/items.zip' }));
    const answer = await instance.agent
      .post(`/api/connectors/run/${instance.id}`)
      .set('Origin', TEST_ORIGIN)
      .expect(502);
    // Only the size: neither the bytes nor the parser's quote of them.
    expect(answer.body.error).toMatch(
      /^Run failed: Response from \S+ is not valid JSON \(12 bytes of binary data\)$/,
    );
    const [run] = await waitForRuns(instance.agent, instance.id, 20_000);
    expect(run.status).toBe('failed');
    expect(run.error).toBe(answer.body.error.replace(/^Run failed: /, ''));
    // eslint-disable-next-line no-control-regex -- no control character may reach the message
    expect(run.error).not.toMatch(/[\u0000-\u0008]/);
  });

  it('turns a header row and arrays (Google Sheets values) into records', async () => {
    const instance = await connect(
      testApp,
      single({
        url_path: '/v4/spreadsheets/sheet1/values/A1:C4',
        records: { path: 'values', header_row: true },
      }),
    );
    expect(await runToEnd(instance)).toMatchObject({ status: 'succeeded', row_count: 3 });
    expect(await rowsOf(testApp, instance.id, 'id')).toEqual([
      { id: '1', name: 'Ada', score: '12.5', column_4: null },
      { id: '2', name: 'Grace', score: null, column_4: null },
      { id: '3', name: 'Linus', score: '7', column_4: 'extra' },
    ]);
  });

  it('sends the kept ETag and Last-Modified; a 304 leaves the table as it is, even when overriding', async () => {
    version = 'v1';
    const instance = await connect(
      testApp,
      single({ url_path: '/catalog.json', conditional_requests: true }),
    );
    expect(await runToEnd(instance, true)).toMatchObject({ status: 'succeeded', row_count: 1 });
    upstream.requests.splice(0);
    const unchanged = await runToEnd(instance, true);
    expect(upstream.requests[0].headers['if-none-match']).toBe('"v1"');
    expect(upstream.requests[0].headers['if-modified-since']).toBe('Tue, 14 Jan 2025 10:00:00 GMT');
    expect(unchanged).toMatchObject({
      status: 'succeeded',
      row_count: 0,
      warning: 'No change since the last run (HTTP 304 Not Modified): the table was left as it was',
    });
    expect(await rowsOf(testApp, instance.id)).toEqual([{ id: '1', version: 'v1' }]);

    version = 'v2';
    expect(await runToEnd(instance, true)).toMatchObject({
      status: 'succeeded',
      row_count: 1,
      warning: null,
    });
    expect(await rowsOf(testApp, instance.id)).toEqual([{ id: '1', version: 'v2' }]);
  });
});
