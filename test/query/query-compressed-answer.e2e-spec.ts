import { Gzip } from 'node:zlib';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

/**
 * A long compressed answer waits for 'drain' many times. The compression middleware hands each
 * 'drain' listener to its zlib stream but not its removal, so a listener added per wait piled up
 * (Node warned past ten: MaxListenersExceededWarning); one listener serves the whole answer.
 */
describe('POST /api/query: a long compressed answer leaves no listeners behind', () => {
  let testApp: TestApp;
  let agent: Awaited<ReturnType<typeof createLoggedInUser>>['agent'];

  beforeAll(async () => {
    testApp = await createTestApp();
    agent = (await createLoggedInUser(testApp)).agent;
  });
  afterAll(() => testApp.close());

  it.each(['csv', 'json', 'ndjson'])('format=%s, gzip: no pile of drain listeners', async (format) => {
    // The gzip streams that were given 'drain' listeners.
    const listenedTo = new Set<Gzip>();
    const on = Gzip.prototype.on;
    const listening = jest.spyOn(Gzip.prototype, 'on').mockImplementation(function (
      this: Gzip,
      event: string | symbol,
      listener: (...args: unknown[]) => void,
    ) {
      if (event === 'drain') listenedTo.add(this);
      return on.call(this, event, listener);
    });
    try {
      const response = await agent
        .post('/api/query')
        .set('Origin', TEST_ORIGIN)
        .set('Accept-Encoding', 'gzip')
        .send({ sql: 'SELECT g, md5(g::text) AS hash FROM generate_series(1, 200000) g', format })
        .buffer(true)
        .parse((stream, callback) => {
          let size = 0;
          stream.on('data', (chunk: Buffer) => (size += chunk.length));
          stream.on('end', () => callback(null, size));
        })
        .expect(200);
      expect(response.headers['content-encoding']).toBe('gzip');
      // Megabytes: the answer waited on its client many times over.
      expect(response.body).toBeGreaterThan(5_000_000);
      expect(listenedTo.size).toBeGreaterThan(0);
      // The answer's one listener at most, however many waits there were.
      for (const stream of listenedTo) expect(stream.listenerCount('drain')).toBeLessThanOrEqual(1);
    } finally {
      listening.mockRestore();
    }
  });
});
