import { ConnectorEngine, newProgress } from '../../src/connectors/engine/connector-engine';
import { FakeUpstream, sendJson, startFakeUpstream } from './support/fake-upstream';
import { plan, records, testEngine } from './support/engine';

/** 23 items served in whatever paging style the request asks for. */
const ITEMS = Array.from({ length: 23 }, (_, index) => ({ id: index + 1 }));

describe('connector engine: pagination', () => {
  let upstream: FakeUpstream;
  let engine: ConnectorEngine;

  beforeAll(async () => {
    upstream = await startFakeUpstream((request, response) => {
      const query = request.url.searchParams;
      const path = request.url.pathname;
      if (path === '/page') {
        // Pages of 10, then one empty page; never reports a total.
        const page = Number(query.get('page') ?? 1);
        return sendJson(response, { items: ITEMS.slice((page - 1) * 10, page * 10) });
      }
      if (path === '/page-full-forever') return sendJson(response, { items: ITEMS.slice(0, 5), total: 12 });
      if (path === '/offset') {
        const offset = Number(query.get('offset') ?? 0);
        const limit = Number(query.get('limit') ?? 10);
        return sendJson(response, { data: ITEMS.slice(offset, offset + limit) });
      }
      if (path === '/offset-with-total') {
        // Reports a total of 12 (nested) and would serve full pages past it.
        const offset = Number(query.get('offset') ?? 0);
        return sendJson(response, { data: ITEMS.slice(offset, offset + 5), meta: { count: 12 } });
      }
      if (path === '/cursor') {
        const start = Number(query.get('after') ?? 0);
        const slice = ITEMS.slice(start, start + 10);
        const next = start + 10 < ITEMS.length ? String(start + 10) : null;
        return sendJson(response, { results: slice, meta: { next } });
      }
      if (path === '/cursor-empty-page') {
        const start = Number(query.get('after') ?? 0);
        return sendJson(response, { results: start === 0 ? ITEMS.slice(0, 3) : [], meta: { next: 'more' } });
      }
      return sendJson(response, ITEMS);
    });
    engine = testEngine();
  });
  afterAll(async () => {
    engine.destroy();
    await upstream.close();
  });
  beforeEach(() => upstream.requests.splice(0));

  it('none: fetches a single page', async () => {
    expect(
      await records(engine, plan({ urlTemplate: `${upstream.origin}/all`, pagination: { type: 'none' } })),
    ).toHaveLength(23);
    expect(upstream.requests).toHaveLength(1);
  });

  it('page: stops at an empty page when no page size is known', async () => {
    const rows = await records(
      engine,
      plan({
        urlTemplate: `${upstream.origin}/page`,
        responsePath: 'items',
        pagination: { type: 'page', page_param: 'page' },
      }),
    );
    expect(rows).toHaveLength(23);
    expect(upstream.requests.map((request) => request.url.searchParams.get('page'))).toEqual([
      '1',
      '2',
      '3',
      '4',
    ]);
  });

  it('page: stops at a page with fewer rows than the page size, sending the size parameter', async () => {
    const rows = await records(
      engine,
      plan({
        urlTemplate: `${upstream.origin}/page`,
        responsePath: 'items',
        pagination: { type: 'page', page_param: 'page', size_param: 'per_page', page_size: 10 },
      }),
    );
    expect(rows).toHaveLength(23);
    expect(upstream.requests).toHaveLength(3);
    expect(upstream.requests[0].url.searchParams.get('per_page')).toBe('10');
  });

  it('page: stops when the total from total_path is reached', async () => {
    const rows = await records(
      engine,
      plan({
        urlTemplate: `${upstream.origin}/page-full-forever`,
        responsePath: 'items',
        pagination: { type: 'page', total_path: 'total', start_page: 0 },
      }),
    );
    expect(rows).toHaveLength(15);
    expect(upstream.requests.map((request) => request.url.searchParams.get('page'))).toEqual(['0', '1', '2']);
  });

  it('page: stops at the spec max_pages and at the engine hard cap, each with a warning that more data may exist', async () => {
    const first = newProgress();
    const rows = await records(
      engine,
      plan({
        urlTemplate: `${upstream.origin}/page-full-forever`,
        responsePath: 'items',
        pagination: { type: 'page', max_pages: 2 },
      }),
      first,
    );
    expect(rows).toHaveLength(10);
    expect(upstream.requests).toHaveLength(2);
    expect(first.warnings).toEqual([
      'Stopped at max_pages (2) while the upstream had more pages: more data may exist',
    ]);
    upstream.requests.splice(0);
    const capped = testEngine({ maxPagesPerRun: 4 });
    const second = newProgress();
    try {
      const cappedRows = await records(
        capped,
        plan({
          urlTemplate: `${upstream.origin}/page-full-forever`,
          responsePath: 'items',
          pagination: { type: 'page' },
        }),
        second,
      );
      expect(cappedRows).toHaveLength(20);
    } finally {
      capped.destroy();
    }
    expect(upstream.requests).toHaveLength(4);
    expect(second.warnings).toEqual([
      'Stopped at the limit of 4 pages per run while more pages were due: more data may exist',
    ]);
  });

  it('offset: advances the offset by the rows received and stops below the limit', async () => {
    const rows = await records(
      engine,
      plan({
        urlTemplate: `${upstream.origin}/offset`,
        responsePath: 'data',
        pagination: { type: 'offset', offset_param: 'offset', limit_param: 'limit', page_size: 10 },
      }),
    );
    expect(rows.map((row) => row.id)).toEqual(ITEMS.map((item) => item.id));
    expect(upstream.requests.map((request) => request.url.searchParams.get('offset'))).toEqual([
      '0',
      '10',
      '20',
    ]);
    expect(upstream.requests[0].url.searchParams.get('limit')).toBe('10');
  });

  it('offset: stops at an empty page', async () => {
    const rows = await records(
      engine,
      plan({
        urlTemplate: `${upstream.origin}/offset?limit=5`,
        responsePath: 'data',
        pagination: { type: 'offset' },
      }),
    );
    expect(rows).toHaveLength(23);
    expect(upstream.requests.map((request) => request.url.searchParams.get('offset'))).toEqual([
      '0',
      '5',
      '10',
      '15',
      '20',
      '23',
    ]);
  });

  it('offset: stops when the total at a nested total_path is reached', async () => {
    const rows = await records(
      engine,
      plan({
        urlTemplate: `${upstream.origin}/offset-with-total`,
        responsePath: 'data',
        pagination: { type: 'offset', total_path: 'meta.count' },
      }),
    );
    expect(rows).toHaveLength(15);
    expect(upstream.requests.map((request) => request.url.searchParams.get('offset'))).toEqual([
      '0',
      '5',
      '10',
    ]);
  });

  it('cursor: passes the next cursor until it is missing', async () => {
    const rows = await records(
      engine,
      plan({
        urlTemplate: `${upstream.origin}/cursor`,
        responsePath: 'results',
        pagination: { type: 'cursor', cursor_param: 'after', cursor_path: 'meta.next' },
      }),
    );
    expect(rows).toHaveLength(23);
    expect(upstream.requests.map((request) => request.url.searchParams.get('after'))).toEqual([
      null,
      '10',
      '20',
    ]);
  });

  it('cursor: stops at an empty page even when a cursor is still given', async () => {
    const rows = await records(
      engine,
      plan({
        urlTemplate: `${upstream.origin}/cursor-empty-page`,
        responsePath: 'results',
        pagination: { type: 'cursor', cursor_param: 'after', cursor_path: 'meta.next' },
      }),
    );
    expect(rows).toHaveLength(3);
    expect(upstream.requests).toHaveLength(2);
  });
});
