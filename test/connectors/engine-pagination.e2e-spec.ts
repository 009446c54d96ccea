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
      if (path === '/page-capped') {
        // Pages of 4 whatever per_page asks for, and nothing says how many there are.
        const page = Number(query.get('page') ?? 1);
        return sendJson(response, { items: ITEMS.slice((page - 1) * 4, page * 4) });
      }
      if (path === '/page-clamped') {
        // Pages of 10; any page past the last answers the last one again.
        const page = Math.min(Number(query.get('page') ?? 1), 3);
        return sendJson(response, { items: ITEMS.slice((page - 1) * 10, page * 10) });
      }
      if (path === '/page-look-alike') {
        // Every page starts with the same header-like row; the rows after it differ.
        const page = Number(query.get('page') ?? 1);
        const rows = page > 2 ? [] : [{ id: 0 }, ...ITEMS.slice((page - 1) * 4, page * 4)];
        return sendJson(response, { items: rows });
      }
      if (path === '/page-ignored') return sendJson(response, { items: ITEMS.slice(0, 10) });
      if (path === '/cursor-lost')
        return sendJson(response, { results: ITEMS.slice(0, 5), meta: { has_more: true } });
      if (path === '/page-full-forever') {
        // Full pages of 5 new items for ever, and a total (12) that only total_path reads.
        const page = Number(query.get('page') ?? 1);
        const items = Array.from({ length: 5 }, (_, index) => ({ id: page * 5 + index + 1 }));
        return sendJson(response, { items, total: 12 });
      }
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

  it('page: after a page shorter than the page size, asks once more and stops at the empty page', async () => {
    const rows = await records(
      engine,
      plan({
        urlTemplate: `${upstream.origin}/page`,
        responsePath: 'items',
        pagination: { type: 'page', page_param: 'page', size_param: 'per_page', page_size: 10 },
      }),
    );
    expect(rows).toHaveLength(23);
    expect(upstream.requests.map((request) => request.url.searchParams.get('page'))).toEqual([
      '1',
      '2',
      '3',
      '4',
    ]);
    expect(upstream.requests[0].url.searchParams.get('per_page')).toBe('10');
  });

  it('page: stops at the short page itself when the spec says stop_on_short_page', async () => {
    const rows = await records(
      engine,
      plan({
        urlTemplate: `${upstream.origin}/page`,
        responsePath: 'items',
        pagination: { type: 'page', size_param: 'per_page', page_size: 10, stop_on_short_page: true },
      }),
    );
    expect(rows).toHaveLength(23);
    expect(upstream.requests).toHaveLength(3);
  });

  it('page: an upstream that pages by fewer rows than asked, saying nothing else, fails the run', async () => {
    const progress = newProgress();
    await expect(
      records(
        engine,
        plan({
          urlTemplate: `${upstream.origin}/page-capped`,
          responsePath: 'items',
          pagination: { type: 'page', size_param: 'per_page', page_size: 10 },
        }),
        progress,
      ),
    ).rejects.toThrow(
      'The upstream answered 4 rows for a page size of 10 while more exist: it does not accept that page size; set page_size to at most 4',
    );
  });

  it('page: an upstream that answers a page past the end with its last page again stops there, no row twice', async () => {
    const rows = await records(
      engine,
      plan({
        urlTemplate: `${upstream.origin}/page-clamped`,
        responsePath: 'items',
        pagination: { type: 'page', size_param: 'per_page', page_size: 10 },
      }),
    );
    expect(rows.map((row) => row.id)).toEqual(ITEMS.map((item) => item.id));
    expect(upstream.requests).toHaveLength(4);
  });

  it('page: an upstream that ignores the page parameter fails at the second page, not at the page limit', async () => {
    await expect(
      records(
        engine,
        plan({
          urlTemplate: `${upstream.origin}/page-ignored`,
          responsePath: 'items',
          pagination: { type: 'page', page_param: 'p', size_param: 'per_page', page_size: 10 },
        }),
      ),
    ).rejects.toThrow(
      'The upstream answered the same page twice: it does not seem to read the p parameter; stopped instead of fetching it again',
    );
    expect(upstream.requests).toHaveLength(2);
  });

  it('page: pages that only start alike are different pages', async () => {
    const rows = await records(
      engine,
      plan({
        urlTemplate: `${upstream.origin}/page-look-alike`,
        responsePath: 'items',
        pagination: { type: 'page', size_param: 'per_page', page_size: 5 },
      }),
    );
    expect(rows.map((row) => row.id)).toEqual([0, 1, 2, 3, 4, 0, 5, 6, 7, 8]);
  });

  it('cursor: more data said to exist but no next cursor fails the run instead of keeping a partial pull', async () => {
    await expect(
      records(
        engine,
        plan({
          urlTemplate: `${upstream.origin}/cursor-lost`,
          responsePath: 'results',
          pagination: {
            type: 'cursor',
            cursor_param: 'after',
            cursor_path: 'meta.next',
            has_more_path: 'meta.has_more',
          },
        }),
      ),
    ).rejects.toThrow(
      'The upstream says more data exists but gave no cursor at meta.next; stopped rather than keep a partial pull',
    );
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
      'Stopped at max_pages (2) with a next page still to ask for: more data may exist',
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

  it('offset: advances the offset by the rows received and, after a page below the limit, stops at the empty one', async () => {
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
      '23',
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
