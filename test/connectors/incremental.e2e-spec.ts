import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { FakeUpstream, sendJson, startFakeUpstream } from './support/fake-upstream';
import { rowsOf, runToEnd } from './support/run-and-read';
import { connect, ConnectedInstance } from './support/run-through-api';

interface Event {
  id: number;
  status: string;
  updated_at: string;
}

/** Incremental sync: a cursor saved on commit, sent on the next run; upserts on the primary key. */
describe('connector incremental sync', () => {
  let upstream: FakeUpstream;
  let testApp: TestApp;
  let events: Event[] = [];
  let failPage2 = false;

  beforeAll(async () => {
    upstream = await startFakeUpstream((request, response) => {
      if (request.url.pathname === '/events') {
        const since = request.url.searchParams.get('updated_since');
        const page = Number(request.url.searchParams.get('page') ?? '1');
        if (failPage2 && page === 2) return sendJson(response, { message: 'down' }, 400);
        const changed = events
          .filter((event) => !since || Date.parse(event.updated_at) > Date.parse(since))
          .sort((a, b) => a.updated_at.localeCompare(b.updated_at));
        return sendJson(response, { data: changed.slice((page - 1) * 2, page * 2) });
      }
      if (request.url.pathname === '/daily') {
        const start = request.url.searchParams.get('start')!;
        return sendJson(response, [{ day: start, end: request.url.searchParams.get('end') }]);
      }
      return sendJson(response, { message: 'Not Found' }, 404);
    });
    testApp = await createTestApp({ CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' });
  });
  afterAll(async () => {
    await testApp.close();
    await upstream.close();
  });
  beforeEach(() => {
    failPage2 = false;
    events = [
      { id: 1, status: 'new', updated_at: '2024-01-02T00:00:00Z' },
      { id: 2, status: 'new', updated_at: '2024-01-03T00:00:00Z' },
      { id: 3, status: 'new', updated_at: '2024-01-04T00:00:00Z' },
    ];
  });

  const spec = (incremental: Record<string, unknown> = {}) => ({
    base_url: upstream.origin,
    fields: [{ key: 'start_date', type: 'date' as const }],
    operations: [
      {
        id: 'events',
        url_path: '/events',
        response_path: 'data',
        pagination: {
          type: 'page' as const,
          page_param: 'page',
          start_page: 1,
          page_size: 2,
          stop_on_short_page: true,
        },
        primary_key: ['id'],
        incremental: {
          cursor_field: 'updated_at',
          param: 'updated_since',
          start_setting: 'start_date',
          ...incremental,
        },
      },
    ],
  });

  const stateOf = async (id: string) =>
    (
      await testApp.dataSource.query(`SELECT incremental_state FROM connector_instances WHERE id = $1`, [id])
    )[0].incremental_state;
  const sinceSent = () => upstream.requests.map((request) => request.url.searchParams.get('updated_since'));
  const ids = async (instance: ConnectedInstance) =>
    (await rowsOf(testApp, instance.id, 'id')).map((row) => `${row.id}:${row.status}`);

  it('the second run asks only for what changed since the first, and upserts without duplicates', async () => {
    const instance = await connect(testApp, spec(), { settings: { start_date: '2024-01-01' } });
    upstream.requests.splice(0);
    expect(await runToEnd(instance)).toMatchObject({ status: 'succeeded', row_count: 3 });
    expect(sinceSent()).toEqual(['2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z']);
    expect(await stateOf(instance.id)).toEqual({ cursor: '2024-01-04T00:00:00Z' });

    events[1] = { id: 2, status: 'changed', updated_at: '2024-01-05T00:00:00Z' };
    events.push({ id: 4, status: 'new', updated_at: '2024-01-06T00:00:00Z' });
    upstream.requests.splice(0);
    expect(await runToEnd(instance)).toMatchObject({ status: 'succeeded', row_count: 2 });
    expect(sinceSent()).toEqual(['2024-01-04T00:00:00Z', '2024-01-04T00:00:00Z']);
    expect(await ids(instance)).toEqual(['1:new', '2:changed', '3:new', '4:new']);
    expect(await stateOf(instance.id)).toEqual({ cursor: '2024-01-06T00:00:00Z' });

    // Nothing new: one request, no rows, the state stays.
    upstream.requests.splice(0);
    expect(await runToEnd(instance)).toMatchObject({ status: 'succeeded', row_count: 0 });
    expect(sinceSent()).toEqual(['2024-01-06T00:00:00Z']);
    expect(await ids(instance)).toHaveLength(4);
    expect(await stateOf(instance.id)).toEqual({ cursor: '2024-01-06T00:00:00Z' });
  });

  it('even with override chosen, an incremental run adds to the table instead of replacing it', async () => {
    const instance = await connect(testApp, spec(), { settings: { start_date: '2024-01-01' } });
    await runToEnd(instance, true);
    events.push({ id: 9, status: 'new', updated_at: '2024-02-01T00:00:00Z' });
    expect(await runToEnd(instance, true)).toMatchObject({ status: 'succeeded', row_count: 1 });
    expect(await ids(instance)).toEqual(['1:new', '2:new', '3:new', '9:new']);
  });

  it('a lookback re-reads before the cursor, and the upsert absorbs the overlap', async () => {
    const instance = await connect(testApp, spec({ lookback: 'P1D', format: 'date' }), {
      settings: { start_date: '2024-01-01' },
    });
    await runToEnd(instance);
    upstream.requests.splice(0);
    await runToEnd(instance);
    expect(sinceSent()[0]).toBe('2024-01-03');
    expect(await ids(instance)).toEqual(['1:new', '2:new', '3:new']);
  });

  it('a failed run leaves the state and the rows where they were', async () => {
    const instance = await connect(testApp, spec(), { settings: { start_date: '2024-01-01' } });
    await runToEnd(instance);
    const before = await stateOf(instance.id);
    events.push(
      { id: 5, status: 'new', updated_at: '2024-01-07T00:00:00Z' },
      { id: 6, status: 'new', updated_at: '2024-01-08T00:00:00Z' },
      { id: 7, status: 'new', updated_at: '2024-01-09T00:00:00Z' },
    );
    failPage2 = true;
    const run = await runToEnd(instance);
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/HTTP 400/);
    expect(await stateOf(instance.id)).toEqual(before);
    expect(await ids(instance)).toEqual(['1:new', '2:new', '3:new']);

    failPage2 = false;
    upstream.requests.splice(0);
    expect(await runToEnd(instance)).toMatchObject({ status: 'succeeded', row_count: 3 });
    expect(sinceSent()[0]).toBe('2024-01-04T00:00:00Z');
    expect(await ids(instance)).toHaveLength(6);
  });

  it('reset makes the next run read from the start value again; others cannot reset it', async () => {
    const instance = await connect(testApp, spec(), { settings: { start_date: '2024-01-01' } });
    await runToEnd(instance);
    const other = await connect(testApp, spec());
    await other.agent
      .post(`/api/connectors/instance/${instance.id}/state/reset`)
      .set('Origin', TEST_ORIGIN)
      .expect(404);
    expect(await stateOf(instance.id)).not.toBeNull();
    const reset = await instance.agent
      .post(`/api/connectors/instance/${instance.id}/state/reset`)
      .set('Origin', TEST_ORIGIN)
      .expect(200);
    expect(reset.body).toEqual({ state: null });
    expect(await stateOf(instance.id)).toBeNull();
    upstream.requests.splice(0);
    expect(await runToEnd(instance)).toMatchObject({ status: 'succeeded', row_count: 3 });
    expect(sinceSent()[0]).toBe('2024-01-01T00:00:00Z');
    expect(await ids(instance)).toEqual(['1:new', '2:new', '3:new']);
  });

  it('reads date ranges in windows from the start to now, without typed dates', async () => {
    const day = (offset: number) => new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10);
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
            start: '-P3D',
            window: { step: 'P1D', start_param: 'start', end_param: 'end' },
          },
        },
      ],
    });
    upstream.requests.splice(0);
    expect(await runToEnd(instance)).toMatchObject({ status: 'succeeded', row_count: 4 });
    expect(
      upstream.requests.map((request) => [
        request.url.searchParams.get('start'),
        request.url.searchParams.get('end'),
      ]),
    ).toEqual([
      [day(3), day(2)],
      [day(2), day(1)],
      [day(1), day(0)],
      [day(0), day(0)],
    ]);
    expect(await stateOf(instance.id)).toEqual({ cursor: day(0) });
    // The next run starts at the saved day: re-reading it upserts, never duplicates.
    upstream.requests.splice(0);
    await runToEnd(instance);
    expect(upstream.requests.map((request) => request.url.searchParams.get('start'))).toEqual([day(0)]);
    expect((await rowsOf(testApp, instance.id, 'day')).map((row) => row.day)).toEqual([
      day(3),
      day(2),
      day(1),
      day(0),
    ]);
  });

  it('templates read the state and date functions', async () => {
    const instance = await connect(testApp, {
      base_url: upstream.origin,
      operations: [
        {
          id: 'events',
          url_path: '/events',
          query: { updated_since: '{{incremental.since}}', until: '{{today | minus:P1D | format:yyyyMMdd}}' },
          response_path: 'data',
          incremental: { cursor_field: 'updated_at', start: '2024-01-03T00:00:00Z' },
        },
      ],
    });
    upstream.requests.splice(0);
    expect(await runToEnd(instance)).toMatchObject({ status: 'succeeded', row_count: 1 });
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
    expect(upstream.requests[0].url.searchParams.get('updated_since')).toBe('2024-01-03T00:00:00Z');
    expect(upstream.requests[0].url.searchParams.get('until')).toBe(yesterday);
  });
});
