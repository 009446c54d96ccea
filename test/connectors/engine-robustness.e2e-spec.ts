import { gzipSync } from 'node:zlib';
import { ConnectorEngine, newProgress } from '../../src/connectors/engine/connector-engine';
import { FakeUpstream, sendJson, startFakeUpstream } from './support/fake-upstream';
import { plan, records, testEngine } from './support/engine';

describe('connector engine: failures and limits', () => {
  let upstream: FakeUpstream;
  let engine: ConnectorEngine;
  const attempts = new Map<string, number>();

  beforeAll(async () => {
    upstream = await startFakeUpstream((request, response) => {
      const path = request.url.pathname;
      const count = (attempts.get(path) ?? 0) + 1;
      attempts.set(path, count);
      if (path === '/flaky-503')
        return count < 3 ? sendJson(response, { error: 'busy' }, 503) : sendJson(response, [{ ok: true }]);
      if (path === '/drops-connection') {
        if (count === 1) return response.socket?.destroy();
        return sendJson(response, [{ ok: true }]);
      }
      if (path === '/rate-limited')
        return count === 1
          ? sendJson(response, { error: 'slow down' }, 429, { 'retry-after': '1' })
          : sendJson(response, [{ ok: true }]);
      if (path === '/always-500') return sendJson(response, { error: 'boom' }, 500);
      if (path === '/not-found') return sendJson(response, { message: 'No such city' }, 404);
      if (path === '/bad-json') {
        response.writeHead(200, { 'content-type': 'application/json' });
        return response.end('{"items": [1, 2');
      }
      if (path === '/huge')
        return sendJson(
          response,
          Array.from({ length: 5000 }, (_, index) => ({ index, text: 'x'.repeat(50) })),
        );
      if (path === '/huge-chunked') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('[');
        for (let index = 0; index < 2000; index++)
          response.write(`${index ? ',' : ''}{"text":"${'y'.repeat(100)}"}`);
        return response.end(']');
      }
      if (path === '/gzip') {
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        return response.end(gzipSync(JSON.stringify([{ zipped: true }])));
      }
      if (path === '/slow') return; // never answers
      if (path === '/many')
        return sendJson(
          response,
          Array.from({ length: 30 }, (_, index) => ({ index })),
        );
      return sendJson(response, []);
    });
    engine = testEngine({ retries: 3 });
  });
  afterAll(async () => {
    engine.destroy();
    await upstream.close();
  });
  beforeEach(() => attempts.clear());

  it('retries 5xx answers with backoff and succeeds', async () => {
    expect(await records(engine, plan({ urlTemplate: `${upstream.origin}/flaky-503` }))).toEqual([
      { ok: true },
    ]);
    expect(attempts.get('/flaky-503')).toBe(3);
  });

  it('retries a network error (connection dropped) and succeeds', async () => {
    expect(await records(engine, plan({ urlTemplate: `${upstream.origin}/drops-connection` }))).toEqual([
      { ok: true },
    ]);
    expect(attempts.get('/drops-connection')).toBe(2);
  });

  it('retries a 429 after the Retry-After delay', async () => {
    const started = Date.now();
    expect(await records(engine, plan({ urlTemplate: `${upstream.origin}/rate-limited` }))).toEqual([
      { ok: true },
    ]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(attempts.get('/rate-limited')).toBe(2);
  });

  it('gives up after the retries with the status and a body excerpt', async () => {
    await expect(records(engine, plan({ urlTemplate: `${upstream.origin}/always-500` }))).rejects.toThrow(
      /^HTTP 500 Internal Server Error from 127\.0\.0\.1:\d+\/always-500: \{"error":"boom"\} \(gave up after 4 attempts\)$/,
    );
    expect(attempts.get('/always-500')).toBe(4);
  });

  it('does not retry a 4xx and reports it with a body excerpt', async () => {
    await expect(
      records(engine, plan({ urlTemplate: `${upstream.origin}/not-found?key=secret` })),
    ).rejects.toThrow(/^HTTP 404 Not Found from 127\.0\.0\.1:\d+\/not-found: \{"message":"No such city"\}$/);
    expect(attempts.get('/not-found')).toBe(1);
  });

  it('reports bad JSON', async () => {
    await expect(records(engine, plan({ urlTemplate: `${upstream.origin}/bad-json` }))).rejects.toThrow(
      /is not valid JSON/,
    );
  });

  it('times out a request that never answers', async () => {
    const quick = testEngine({ timeoutMs: 200, retries: 1 });
    try {
      await expect(records(quick, plan({ urlTemplate: `${upstream.origin}/slow` }))).rejects.toThrow(
        /timed out after 200 ms \(gave up after 2 attempts\)/,
      );
    } finally {
      quick.destroy();
    }
    expect(attempts.get('/slow')).toBe(2);
  });

  it('refuses a response larger than the limit, declared or streamed', async () => {
    const small = testEngine({ maxResponseBytes: 10_000 });
    try {
      await expect(records(small, plan({ urlTemplate: `${upstream.origin}/huge` }))).rejects.toThrow(
        /larger than the limit of 10000 bytes/,
      );
      await expect(records(small, plan({ urlTemplate: `${upstream.origin}/huge-chunked` }))).rejects.toThrow(
        /larger than the limit/,
      );
    } finally {
      small.destroy();
    }
  });

  it('stops a run at the row limit with a warning that more data may exist', async () => {
    const limited = testEngine({ maxRowsPerRun: 20 });
    const progress = newProgress();
    try {
      expect(await records(limited, plan({ urlTemplate: `${upstream.origin}/many` }), progress)).toHaveLength(
        20,
      );
      expect(progress.warnings).toEqual(['Stopped at the limit of 20 rows per run: more data may exist']);
    } finally {
      limited.destroy();
    }
  });

  it('decompresses gzip answers', async () => {
    expect(await records(engine, plan({ urlTemplate: `${upstream.origin}/gzip` }))).toEqual([
      { zipped: true },
    ]);
  });

  it('reports an unreachable host as a network error', async () => {
    const quick = testEngine({ retries: 0 });
    try {
      await expect(records(quick, plan({ urlTemplate: 'http://127.0.0.1:1/x' }))).rejects.toThrow(
        /Network error talking to 127\.0\.0\.1:1\/x \(ECONNREFUSED\)/,
      );
    } finally {
      quick.destroy();
    }
  });
});
