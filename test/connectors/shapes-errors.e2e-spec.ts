import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import { createTestApp, TestApp } from '../support/test-app';
import { FakeUpstream, sendJson, startFakeUpstream } from './support/fake-upstream';
import { connect } from './support/run-through-api';

/** Longest pause between the rate budget letting a request through and the request starting. */
const SEND_GAP_MS = 100;
const CITIES = Array.from({ length: 20 }, (_, index) => `city-${index + 1}`);

/**
 * Errors and limits as real APIs answer them: a 404 for one partition, an error inside a 200,
 * a 403 rate limit with X-RateLimit-Reset, Retry-After with decimals, a hanging endpoint, and a
 * rate budget shared by concurrent runs. Each runs through the API and checks the exact rows
 * stored and the run's status.
 */
describe('connector shapes: error handling and rate limits', () => {
  let upstream: FakeUpstream;
  let testApp: TestApp;
  const limited = new Map<string, number>();

  beforeAll(async () => {
    upstream = await startFakeUpstream((request, response) => {
      const path = request.url.pathname;
      if (path.startsWith('/weather/')) {
        // One of twenty cities is unknown upstream.
        if (path === '/weather/city-7' || path.startsWith('/weather/atlantis-'))
          return sendJson(response, { message: 'city not found' }, 404);
        return sendJson(response, { city: path.slice('/weather/'.length), temp: 20 });
      }
      if (path === '/slack/conversations.list') {
        // Slack: every answer is a 200; failures say ok: false.
        if (request.url.searchParams.get('token_ok') !== 'yes')
          return sendJson(response, { ok: false, error: 'invalid_auth' });
        return sendJson(response, { ok: true, channels: [{ id: 'C1' }, { id: 'C2' }] });
      }
      if (path === '/github/limited' || path === '/decimal-retry-after') {
        // First call refused: 403 with X-RateLimit-Remaining 0 (GitHub), or 429 with Retry-After 0.2.
        const seen = (limited.get(path) ?? 0) + 1;
        limited.set(path, seen);
        if (seen === 1 && path === '/github/limited') {
          const reset = String(Math.floor(Date.now() / 1000));
          return sendJson(response, { message: 'API rate limit exceeded' }, 403, {
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': reset,
          });
        }
        if (seen === 1) return sendJson(response, { message: 'slow down' }, 429, { 'retry-after': '0.2' });
        return sendJson(response, [{ id: 1 }, { id: 2 }]);
      }
      if (path === '/hang') return undefined; // never answers
      if (path === '/budget') {
        const page = Number(request.url.searchParams.get('page') ?? 1);
        return sendJson(response, page <= 6 ? [{ page }] : []);
      }
      return sendJson(response, { message: 'Not Found' }, 404);
    });
    testApp = await createTestApp({ CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' });
  });
  afterAll(async () => {
    await testApp.close();
    await upstream.close();
  });
  beforeEach(() => upstream.requests.splice(0));

  it('404-tolerant iterations: a filter ignores the unknown city and the other nineteen are stored', async () => {
    const spec = (filters: boolean) => ({
      base_url: upstream.origin,
      operations: [
        {
          id: 'weather',
          url_path: '/weather/{{city}}',
          ...(filters ? { response_filters: [{ http_codes: [404], action: 'ignore' as const }] } : {}),
        },
      ],
      fields: [{ key: 'city', type: 'text' as const }],
    });
    const tolerant = await connect(testApp, spec(true), { settings: { city: CITIES }, iterations: ['city'] });
    const { run, stored } = await tolerant.run();
    expect(run).toMatchObject({
      status: 'succeeded',
      row_count: 19,
      pages_fetched: 20,
      warning: 'Ignored 1 response (HTTP 404) for city=city-7',
    });
    expect(stored).toBe(19);
    const strict = await connect(testApp, spec(false), { settings: { city: CITIES }, iterations: ['city'] });
    const failed = await strict.run();
    expect(failed.run).toMatchObject({ status: 'failed' });
    expect(failed.run.error).toMatch(/^HTTP 404 Not Found from 127\.0\.0\.1:\d+\/weather\/city-7/);
    expect(failed.stored).toBe(0);
  });

  it('many ignored answers: the warning names the first five partitions and counts the rest', async () => {
    const sunken = Array.from({ length: 7 }, (_, index) => `atlantis-${index + 1}`);
    const instance = await connect(
      testApp,
      {
        base_url: upstream.origin,
        operations: [
          {
            id: 'weather',
            url_path: '/weather/{{city}}',
            response_filters: [{ http_codes: [404], action: 'ignore' as const }],
          },
        ],
        fields: [{ key: 'city', type: 'text' as const }],
      },
      { settings: { city: ['Lima', ...sunken, 'Oslo'] }, iterations: ['city'] },
    );
    const { run, stored } = await instance.run();
    expect(run).toMatchObject({
      status: 'succeeded',
      row_count: 2,
      warning:
        'Ignored 7 responses (HTTP 404) for city=atlantis-1, city=atlantis-2, city=atlantis-3, ' +
        'city=atlantis-4, city=atlantis-5 and 2 more',
    });
    expect(stored).toBe(2);
  });

  it('error inside a 200 body (Slack ok: false): fails with the upstream message instead of storing it', async () => {
    const spec = {
      base_url: upstream.origin,
      operations: [
        {
          id: 'channels',
          url_path: '/slack/conversations.list',
          query: { token_ok: '{{token_ok}}' },
          response_path: 'channels',
          response_filters: [{ path: 'ok', equals: false, action: 'fail' as const, message_path: 'error' }],
        },
      ],
      fields: [{ key: 'token_ok', type: 'text' as const }],
    };
    const bad = await connect(testApp, spec, { settings: { token_ok: 'no' } });
    const failed = await bad.run();
    expect(failed.run).toMatchObject({ status: 'failed' });
    expect(failed.run.error).toMatch(
      /^127\.0\.0\.1:\d+\/slack\/conversations\.list answered an error \(HTTP 200\): invalid_auth$/,
    );
    expect(failed.stored).toBe(0);
    const good = await connect(testApp, spec, { settings: { token_ok: 'yes' } });
    const done = await good.run();
    expect(done.run).toMatchObject({ status: 'succeeded', row_count: 2 });
    expect(done.stored).toBe(2);
  });

  it('retries a 403 with X-RateLimit-Remaining 0 when a filter says so, and a 429 with Retry-After 0.2', async () => {
    const spec = (path: string) => ({
      base_url: upstream.origin,
      requests: { retries: 2, backoff_seconds: 0.01 },
      operations: [
        {
          id: 'limited',
          url_path: path,
          response_filters: [
            { http_codes: [403], header: 'X-RateLimit-Remaining', equals: '0', action: 'retry' as const },
          ],
        },
      ],
    });
    const github = await connect(testApp, spec('/github/limited'));
    const first = await github.run();
    expect(first.run).toMatchObject({ status: 'succeeded', row_count: 2 });
    expect(first.stored).toBe(2);
    const decimal = await connect(testApp, spec('/decimal-retry-after'));
    const started = Date.now();
    const second = await decimal.run();
    expect(second.run).toMatchObject({ status: 'succeeded', row_count: 2 });
    expect(second.stored).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
  });

  it('a per-spec timeout ends a hanging endpoint quickly, with no retries', async () => {
    const instance = await connect(testApp, {
      base_url: upstream.origin,
      requests: { timeout_seconds: 0.3, retries: 0 },
      operations: [{ id: 'hang', url_path: '/hang' }],
    });
    const started = Date.now();
    const { run, stored } = await instance.run();
    expect(run).toMatchObject({ status: 'failed' });
    expect(run.error).toMatch(/^Request to 127\.0\.0\.1:\d+\/hang timed out after 300 ms$/);
    expect(stored).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('rate budget: two concurrent runs of one connector share 5 requests per second', async () => {
    const spec = {
      base_url: upstream.origin,
      requests: { rate_limit: { requests: 5, per_seconds: 1 } },
      operations: [{ id: 'budget', url_path: '/budget', pagination: { type: 'page' as const } }],
    };
    const first = await connect(testApp, spec);
    const second = await connect(testApp, spec, {}, first.connectorId);
    // When the app sends each request to the imitation (the app runs in this process).
    const sent: number[] = [];
    const onRequest = ({ request }: { request: ClientRequest }) => {
      if (request.path.startsWith('/budget') && request.getHeader('host') === new URL(upstream.origin).host)
        sent.push(Date.now());
    };
    subscribe('http.client.request.start', onRequest as (message: unknown) => void);
    const results = await Promise.all([first.run(), second.run()]).finally(() =>
      unsubscribe('http.client.request.start', onRequest as (message: unknown) => void),
    );
    for (const { run, stored } of results) {
      expect(run).toMatchObject({ status: 'succeeded', row_count: 6, pages_fetched: 7 });
      expect(stored).toBe(6);
    }
    expect(upstream.requests).toHaveLength(14);
    expect(sent).toHaveLength(14);
    // Five requests a second between them, as the app sent them: any six consecutive requests
    // span a whole window, less the few synchronous steps between the budget letting a request
    // through and the request starting (SEND_GAP_MS covers those steps on a starved CPU).
    // Where requests arrive is no measure: a loaded machine can delay one more than the next.
    // Without the budget, or with six a second, six requests go within milliseconds.
    const windowMs = 1000;
    const spans = sent.slice(5).map((time, index) => time - sent[index]);
    expect(Math.min(...spans)).toBeGreaterThanOrEqual(windowMs - SEND_GAP_MS);
    // Fourteen requests need three windows: the eleventh waits for the third.
    expect(sent[10] - sent[0]).toBeGreaterThanOrEqual(2 * windowMs - SEND_GAP_MS);
  });
});
