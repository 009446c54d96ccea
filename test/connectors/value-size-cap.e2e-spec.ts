import { MAX_STORED_VALUE_BYTES } from '../../src/query/run/row-size-cap';
import { createTestApp, TestApp } from '../support/test-app';
import { FakeUpstream, startFakeUpstream } from './support/fake-upstream';
import { runToEnd, tableOf } from './support/run-and-read';
import { connect } from './support/run-through-api';

const CAP = MAX_STORED_VALUE_BYTES;

/** A record's field past 16 MB fails the run, as an upload's cell fails the upload: nothing of it is stored. */
describe('connector runs: no stored value past 16 MB', () => {
  let upstream: FakeUpstream;
  let testApp: TestApp;
  let body = '';

  beforeAll(async () => {
    upstream = await startFakeUpstream((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(body);
    });
    testApp = await createTestApp({ CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' });
  });
  afterAll(async () => {
    await testApp.close();
    await upstream.close();
  });

  const spec = () => ({ base_url: upstream.origin, operations: [{ id: 'items', url_path: '/items' }] });

  async function lengthsOf(instanceId: string): Promise<Array<{ id: string; body: number | null }>> {
    const table = await tableOf(testApp, instanceId);
    return testApp.dataSource.query(
      `SELECT id::text AS id, octet_length(body)::int AS body FROM data."${table}" ORDER BY id`,
    );
  }

  it('fails the run naming row and column for a text field past 16 MB, keeping the rows stored before', async () => {
    const instance = await connect(testApp, spec());
    body = JSON.stringify([{ id: 1, body: 'x' }]);
    expect(await runToEnd(instance)).toMatchObject({ status: 'succeeded', row_count: 1 });
    body = JSON.stringify([
      { id: 2, body: 'ok' },
      { id: 3, body: 'é'.repeat(CAP / 2) + 'v' },
    ]);
    expect(await runToEnd(instance)).toMatchObject({
      status: 'failed',
      row_count: 0,
      error: 'Row 2, column "body": a value may be at most 16 MB.',
    });
    expect(await lengthsOf(instance.id)).toEqual([{ id: '1', body: 1 }]);
  }, 60_000);

  it('fails the run for a JSON field whose text passes 16 MB', async () => {
    const instance = await connect(testApp, spec());
    body = JSON.stringify([{ id: 1, body: 'x', doc: { k: 'v'.repeat(CAP - 7) } }]);
    expect(await runToEnd(instance)).toMatchObject({
      status: 'failed',
      error: 'Row 1, column "doc": a value may be at most 16 MB.',
    });
  }, 60_000);

  it('stores a field of exactly 16 MB whole', async () => {
    const instance = await connect(testApp, spec());
    body = JSON.stringify([{ id: 1, body: 'v'.repeat(CAP) }]);
    expect(await runToEnd(instance)).toMatchObject({ status: 'succeeded', row_count: 1 });
    expect(await lengthsOf(instance.id)).toEqual([{ id: '1', body: CAP }]);
  }, 60_000);
});
