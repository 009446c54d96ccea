import { createTestApp, TestApp } from '../support/test-app';
import { FakeUpstream, sendJson, startFakeUpstream } from './support/fake-upstream';
import { rowsOf, runToEnd } from './support/run-and-read';
import { connect } from './support/run-through-api';

const DAY = 86_400;
const JAN_2 = 1_704_153_600;

/** Incremental runs never claim more than they read: capped runs, unmatched cursors, cursor formats. */
describe('connector incremental runs: exact states', () => {
  let upstream: FakeUpstream;
  let testApp: TestApp;
  const charges = [1, 2, 3, 4, 5].map((id) => ({ id: `ch_${id}`, created: JAN_2 + id * DAY }));
  const messages = [
    { sid: 'SM1', date_updated: 'Tue, 14 Jan 2025 10:00:00 +0000' },
    { sid: 'SM2', date_updated: 'Mon, 20 Jan 2025 09:00:00 +0000' },
    { sid: 'SM3', date_updated: 'Wed, 15 Jan 2025 08:00:00 +0000' },
  ];

  beforeAll(async () => {
    upstream = await startFakeUpstream((request, response) => {
      const query = request.url.searchParams;
      if (request.url.pathname === '/v1/charges') {
        // Stripe: newest first unless asked otherwise, `starting_after` the last id of the page before.
        const since = Number(query.get('created[gt]') ?? 0);
        const listed = charges
          .filter((charge) => charge.created > since)
          .sort((a, b) => (query.get('order') === 'asc' ? a.created - b.created : b.created - a.created));
        const after = query.get('starting_after');
        const from = after ? listed.findIndex((charge) => charge.id === after) + 1 : 0;
        const limit = Number(query.get('limit') ?? 10);
        const data = listed.slice(from, from + limit);
        return sendJson(response, { data, has_more: from + limit < listed.length });
      }
      if (request.url.pathname === '/airtable') {
        return sendJson(response, {
          records: [
            { id: 'rec1', fields: { Name: 'a', 'Last Modified': '2024-03-01T10:00:00.000Z' } },
            { id: 'rec2', fields: { Name: 'b', 'Last Modified': '2024-03-02T10:00:00.000Z' } },
          ],
        });
      }
      if (request.url.pathname === '/Messages.json') return sendJson(response, { messages });
      if (request.url.pathname === '/daily')
        return sendJson(response, [{ day: query.get('start'), end: query.get('end') }]);
      return sendJson(response, { message: 'Not Found' }, 404);
    });
    testApp = await createTestApp({ CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' });
  });
  afterAll(async () => {
    await testApp.close();
    await upstream.close();
  });

  const stateOf = async (id: string) =>
    (
      await testApp.dataSource.query(`SELECT incremental_state FROM connector_instances WHERE id = $1`, [id])
    )[0].incremental_state;

  const stripe = (query: Record<string, string> = {}) => ({
    base_url: upstream.origin,
    operations: [
      {
        id: 'charges',
        url_path: '/v1/charges',
        query,
        response_path: 'data',
        primary_key: ['id'],
        pagination: {
          type: 'cursor' as const,
          cursor_record_field: 'id',
          cursor_param: 'starting_after',
          has_more_path: 'has_more',
          size_param: 'limit',
          page_size: 2,
          max_pages: 1,
        },
        incremental: {
          cursor_field: 'created',
          param: 'created[gt]',
          format: 'unix',
          start: '2024-01-01T00:00:00Z',
        },
      },
    ],
  });

  it('a capped run over a newest-first list keeps the previous state and says the read was partial', async () => {
    const instance = await connect(testApp, stripe());
    const run = await runToEnd(instance);
    expect(run).toMatchObject({ status: 'succeeded', row_count: 2 });
    expect(run.warning).toContain('Stopped at max_pages (1) while the upstream had more pages');
    expect(run.warning).toContain('Partial incremental read');
    // Saving the newest cursor would make every later run read only what is newer still.
    expect(await stateOf(instance.id)).toBeNull();
    upstream.requests.splice(0);
    await runToEnd(instance);
    expect(upstream.requests[0].url.searchParams.get('created[gt]')).toBe(String(1_704_067_200));
  });

  it('a capped run over an oldest-first list saves where it stopped, and later runs read the rest', async () => {
    const instance = await connect(testApp, stripe({ order: 'asc' }));
    const first = await runToEnd(instance);
    expect(first.warning).not.toContain('Partial incremental read');
    expect(await stateOf(instance.id)).toEqual({ cursor: JAN_2 + 2 * DAY });
    await runToEnd(instance);
    await runToEnd(instance);
    expect((await rowsOf(testApp, instance.id, 'id')).map((row) => row.id)).toEqual([
      'ch_1',
      'ch_2',
      'ch_3',
      'ch_4',
      'ch_5',
    ]);
  });

  const airtable = (cursorField: string) => ({
    base_url: upstream.origin,
    operations: [
      {
        id: 'records',
        url_path: '/airtable',
        response_path: 'records',
        records: { flatten_depth: 1 },
        incremental: { cursor_field: cursorField, param: 'since', start: '2024-01-01' },
      },
    ],
  });

  it('a cursor_field may name the column the table shows for a record field', async () => {
    const instance = await connect(testApp, airtable('fields_last_modified'));
    expect(await runToEnd(instance)).toMatchObject({ status: 'succeeded', row_count: 2 });
    expect(await stateOf(instance.id)).toEqual({ cursor: '2024-03-02T10:00:00.000Z' });
    upstream.requests.splice(0);
    await runToEnd(instance);
    expect(upstream.requests[0].url.searchParams.get('since')).toBe('2024-03-02T10:00:00Z');
  });

  it('a run whose records never carry the cursor field fails naming it, and stores nothing', async () => {
    const instance = await connect(testApp, airtable('modified_at'));
    const run = await runToEnd(instance);
    expect(run.status).toBe('failed');
    expect(run.error).toBe(
      "incremental: none of the 2 records read has a value in the cursor field 'modified_at'; name a record field or a column of the table",
    );
    expect(await rowsOf(testApp, instance.id)).toEqual([]);
    expect(await stateOf(instance.id)).toBeNull();
  });

  it('RFC 2822 cursors are compared as instants and sent back in the declared format', async () => {
    const instance = await connect(testApp, {
      base_url: upstream.origin,
      operations: [
        {
          id: 'messages',
          url_path: '/Messages.json',
          response_path: 'messages',
          incremental: {
            cursor_field: 'date_updated',
            cursor_format: 'rfc2822',
            format: 'date',
            param: 'DateUpdated>',
            start: '2025-01-01',
          },
        },
      ],
    });
    await runToEnd(instance);
    expect(await stateOf(instance.id)).toEqual({ cursor: 'Mon, 20 Jan 2025 09:00:00 +0000' });
    upstream.requests.splice(0);
    await runToEnd(instance);
    expect(upstream.requests[0].url.searchParams.get('DateUpdated>')).toBe('2025-01-20');
  });

  it('windows from a relative start reach the end of today, so the first run includes today', async () => {
    const day = (offset: number) => new Date(Date.now() - offset * DAY * 1000).toISOString().slice(0, 10);
    const instance = await connect(testApp, {
      base_url: upstream.origin,
      operations: [
        {
          id: 'daily',
          url_path: '/daily',
          primary_key: ['day'],
          incremental: {
            cursor_field: 'day',
            format: 'date',
            start: '-P2D',
            window: { step: 'P1D', start_param: 'start', end_param: 'end' },
          },
        },
      ],
    });
    upstream.requests.splice(0);
    await runToEnd(instance);
    const windows = upstream.requests.map((request) => [
      request.url.searchParams.get('start'),
      request.url.searchParams.get('end'),
    ]);
    expect(windows).toEqual([
      [day(2), day(1)],
      [day(1), day(0)],
      [day(0), day(0)],
    ]);
  });
});
