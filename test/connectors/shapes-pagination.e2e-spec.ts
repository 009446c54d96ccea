import { createTestApp, TestApp } from '../support/test-app';
import { FakeUpstream, sendJson, startFakeUpstream } from './support/fake-upstream';
import { connect } from './support/run-through-api';

const range = (count: number) => Array.from({ length: count }, (_, index) => ({ id: index + 1 }));
const PRODUCTS = range(130);
const REPOS = range(237);
const ARTICLES = range(123);
const CHARGES = range(250).map((item) => ({ id: `ch_${item.id}` }));
const CONTACTS = range(230);

/**
 * Real-world paging shapes against local imitations of the APIs that page that way. Each runs
 * through the API and checks the exact rows stored and the run's status.
 */
describe('connector shapes: pagination as real APIs do it', () => {
  let upstream: FakeUpstream;
  let testApp: TestApp;

  beforeAll(async () => {
    upstream = await startFakeUpstream((request, response) => {
      const query = request.url.searchParams;
      const self = `${upstream.origin}${request.url.pathname}`;
      switch (request.url.pathname) {
        case '/shopify/products.json': {
          // Shopify: pages only through the Link header; page_info is opaque, limit at most 250.
          const limit = Math.min(Number(query.get('limit') ?? 50), 250);
          const start = query.has('page_info')
            ? Number(Buffer.from(query.get('page_info')!, 'base64url'))
            : 0;
          const next = start + limit;
          const headers: Record<string, string> =
            next < PRODUCTS.length
              ? {
                  link: `<${self}?limit=${limit}&page_info=${Buffer.from(String(next)).toString('base64url')}>; rel="next"`,
                }
              : {};
          return sendJson(response, { products: PRODUCTS.slice(start, next) }, 200, headers);
        }
        case '/github/repos': {
          // GitHub: per_page is capped at 100; the Link header says when more pages exist.
          const perPage = Math.min(Number(query.get('per_page') ?? 30), 100);
          const page = Number(query.get('page') ?? 1);
          const last = Math.ceil(REPOS.length / perPage);
          const headers: Record<string, string> =
            page < last ? { link: `<${self}?page=${page + 1}&per_page=${perPage}>; rel="next"` } : {};
          return sendJson(response, REPOS.slice((page - 1) * perPage, page * perPage), 200, headers);
        }
        case '/jsonapi/articles': {
          // JSON:API: links.next is a full URL; page[limit] is capped at 50.
          const limit = Math.min(Number(query.get('page[limit]') ?? 20), 50);
          const offset = Number(query.get('page[offset]') ?? 0);
          const next = offset + limit < ARTICLES.length;
          return sendJson(response, {
            data: ARTICLES.slice(offset, offset + limit),
            meta: { total: ARTICLES.length },
            links: {
              self: request.url.toString(),
              ...(next
                ? { next: `${self}?page%5Boffset%5D=${offset + limit}&page%5Blimit%5D=${limit}` }
                : {}),
            },
          });
        }
        case '/stripe/v1/charges': {
          // Stripe: starting_after = the last id seen; has_more says whether to go on.
          const limit = Number(query.get('limit') ?? 10);
          const after = query.get('starting_after');
          const start = after ? CHARGES.findIndex((charge) => charge.id === after) + 1 : 0;
          const data = CHARGES.slice(start, start + limit);
          return sendJson(response, { object: 'list', data, has_more: start + limit < CHARGES.length });
        }
        case '/hubspot/crm/v3/objects/contacts/search': {
          // HubSpot search: POST, the cursor goes into the JSON body as `after`.
          const body = JSON.parse(request.body || '{}') as { after?: string; limit?: number };
          const start = Number(body.after ?? 0);
          const limit = body.limit ?? 10;
          const next = start + limit < CONTACTS.length ? String(start + limit) : undefined;
          return sendJson(response, {
            total: CONTACTS.length,
            results: CONTACTS.slice(start, start + limit),
            ...(next ? { paging: { next: { after: next } } } : {}),
          });
        }
        case '/stuck/items':
          // A broken API that hands out the same cursor forever.
          return sendJson(response, { items: range(5), next: 'same-cursor' });
        default:
          return sendJson(response, { message: 'Not Found' }, 404);
      }
    });
    testApp = await createTestApp({ CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' });
  });
  afterAll(async () => {
    await testApp.close();
    await upstream.close();
  });

  it('Link header (Shopify): follows rel="next" as given and stores every product', async () => {
    const instance = await connect(testApp, {
      base_url: upstream.origin,
      operations: [
        {
          id: 'products',
          url_path: '/shopify/products.json',
          response_path: 'products',
          pagination: { type: 'link_header', size_param: 'limit', page_size: 50 },
        },
      ],
    });
    const { run, stored } = await instance.run();
    expect(run).toMatchObject({ status: 'succeeded', row_count: 130, pages_fetched: 3, warning: null });
    expect(stored).toBe(130);
  });

  it('page size above the upstream cap (GitHub per_page 200): fails instead of storing a short first page', async () => {
    const spec = (pageSize: number) => ({
      base_url: upstream.origin,
      operations: [
        {
          id: 'repos',
          url_path: '/github/repos',
          pagination: { type: 'page' as const, size_param: 'per_page', page_size: pageSize },
        },
      ],
    });
    const capped = await connect(testApp, spec(200));
    const failed = await capped.run();
    expect(failed.run).toMatchObject({
      status: 'failed',
      error:
        'The upstream answered 100 rows for a page size of 200 while more exist: it does not accept that page size; set page_size to at most 100',
    });
    expect(failed.stored).toBe(0);
    const fine = await connect(testApp, spec(100));
    const done = await fine.run();
    expect(done.run).toMatchObject({ status: 'succeeded', row_count: 237 });
    expect(done.stored).toBe(237);
  });

  it('next URL in the body (JSON:API links.next): followed as given; a capped page[limit] fails', async () => {
    const spec = (pageSize: number) => ({
      base_url: upstream.origin,
      operations: [
        {
          id: 'articles',
          url_path: '/jsonapi/articles',
          response_path: 'data',
          pagination: {
            type: 'next_url' as const,
            next_url_path: 'links.next',
            size_param: 'page[limit]',
            page_size: pageSize,
            total_path: 'meta.total',
            stop_on_short_page: true,
          },
        },
      ],
    });
    const ok = await connect(testApp, spec(50));
    const done = await ok.run();
    expect(done.run).toMatchObject({ status: 'succeeded', row_count: 123, pages_fetched: 3 });
    expect(done.stored).toBe(123);
    const tooBig = await connect(testApp, spec(100));
    const failed = await tooBig.run();
    expect(failed.run).toMatchObject({ status: 'failed' });
    expect(failed.run.error).toContain('does not accept that page size; set page_size to at most 50');
    expect(failed.stored).toBe(0);
  });

  it('last-record cursor with has_more (Stripe): starting_after = the last id until has_more is false', async () => {
    const instance = await connect(testApp, {
      base_url: upstream.origin,
      operations: [
        {
          id: 'charges',
          url_path: '/stripe/v1/charges',
          response_path: 'data',
          pagination: {
            type: 'cursor',
            cursor_param: 'starting_after',
            cursor_record_field: 'id',
            has_more_path: 'has_more',
            size_param: 'limit',
            page_size: 100,
          },
        },
      ],
    });
    upstream.requests.splice(0);
    const { run, stored } = await instance.run();
    expect(run).toMatchObject({ status: 'succeeded', row_count: 250, pages_fetched: 3 });
    expect(stored).toBe(250);
    expect(upstream.requests.map((request) => request.url.searchParams.get('starting_after'))).toEqual([
      null,
      'ch_100',
      'ch_200',
    ]);
  });

  it('cursor injected into the POST body (HubSpot search): each page asks for the next one', async () => {
    const instance = await connect(testApp, {
      base_url: upstream.origin,
      operations: [
        {
          id: 'contacts',
          method: 'POST',
          url_path: '/hubspot/crm/v3/objects/contacts/search',
          body: { filterGroups: [], limit: 100 },
          response_path: 'results',
          pagination: {
            type: 'cursor',
            cursor_path: 'paging.next.after',
            cursor_param: 'after',
            inject_into: 'body',
          },
        },
      ],
    });
    upstream.requests.splice(0);
    const { run, stored } = await instance.run();
    expect(run).toMatchObject({ status: 'succeeded', row_count: 230, pages_fetched: 3 });
    expect(stored).toBe(230);
    expect(upstream.requests.map((request) => JSON.parse(request.body).after)).toEqual([
      undefined,
      '100',
      '200',
    ]);
  });

  it('repeated cursor: fails with a message that says so after the second page, storing nothing', async () => {
    const instance = await connect(testApp, {
      base_url: upstream.origin,
      operations: [
        {
          id: 'items',
          url_path: '/stuck/items',
          response_path: 'items',
          pagination: { type: 'cursor', cursor_path: 'next' },
        },
      ],
    });
    upstream.requests.splice(0);
    const { run, stored } = await instance.run();
    expect(run).toMatchObject({
      status: 'failed',
      error: 'The upstream gave the same cursor twice; stopped instead of fetching the same page again',
    });
    expect(stored).toBe(0);
    expect(upstream.requests).toHaveLength(2);
  });

  it('max_pages reached while more exist: succeeds with a warning in the run history', async () => {
    const instance = await connect(testApp, {
      base_url: upstream.origin,
      operations: [
        {
          id: 'products',
          url_path: '/shopify/products.json',
          response_path: 'products',
          pagination: { type: 'link_header', size_param: 'limit', page_size: 50, max_pages: 2 },
        },
      ],
    });
    const { run, stored } = await instance.run();
    expect(run).toMatchObject({
      status: 'succeeded',
      row_count: 100,
      warning: 'Stopped at max_pages (2) while the upstream had more pages: more data exists',
    });
    expect(stored).toBe(100);
  });
});
