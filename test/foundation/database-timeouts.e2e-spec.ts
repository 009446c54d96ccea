import { Writable } from 'node:stream';
import { runMigrations } from '../../src/database/migrate';
import { pgPool } from '../../src/database/sql';
import { copyOut } from '../../src/stream/copy-out';
import { RestartablePostgres } from '../reliability/support/restartable-postgres';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, createTestAppOn, TestApp } from '../support/test-app';

const STATEMENT_MS = 1_000;
const TIMEOUTS = {
  DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_MS),
  DATABASE_IDLE_TRANSACTION_MS: '1000',
  DATABASE_ACQUIRE_TIMEOUT_MS: '1000',
};
/** A request waits at most for a connection, then for one statement's answer (plus its grace). */
const REQUEST_BOUND_MS = 1_000 + STATEMENT_MS + 1_000 + 1_000;

async function timed<T>(work: () => PromiseLike<T>): Promise<{ result: T; ms: number }> {
  const started = Date.now();
  const result = await work();
  return { result, ms: Date.now() - started };
}

describe('database time limits on a live server', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp(TIMEOUTS);
  });
  afterAll(() => testApp?.close());

  it('cancels a statement that outlasts the limit', async () => {
    const { ms } = await timed(() =>
      testApp.dataSource.query('SELECT pg_sleep(5)').then(
        () => 'answered',
        (error: { driverError?: { code?: string } }) => error.driverError?.code,
      ),
    );
    expect(ms).toBeLessThan(3_000);
    await expect(testApp.dataSource.query('SELECT pg_sleep(5)')).rejects.toMatchObject({
      driverError: { code: '57014' },
    });
  });

  it('ends a transaction left idle past the limit, and its connection is not reused', async () => {
    const runner = testApp.dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    await runner.query('SELECT 1');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await expect(runner.query('SELECT 1')).rejects.toThrow();
    await runner.release().catch(() => undefined);
    await expect(testApp.dataSource.query('SELECT 1 AS ok')).resolves.toEqual([{ ok: 1 }]);
  });

  it('lets a stream run longer than the statement limit', async () => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
    });
    await copyOut(
      pgPool(testApp.dataSource),
      `COPY (SELECT n FROM generate_series(1, 3) n WHERE pg_sleep(0.6) IS NOT NULL) TO STDOUT`,
      sink,
      { tables: [], onStart: () => undefined },
    );
    expect(Buffer.concat(chunks).toString()).toBe('1\n2\n3\n');
    // The connection went back with the ordinary limit.
    await expect(testApp.dataSource.query('SELECT pg_sleep(1.5)')).rejects.toMatchObject({
      driverError: { code: '57014' },
    });
  });
});

describe('a database that stalls (SIGSTOP on a server of this test)', () => {
  let server: RestartablePostgres;
  let testApp: TestApp | undefined;

  beforeAll(async () => {
    server = await RestartablePostgres.start();
    await runMigrations(server.url);
    testApp = await createTestAppOn(server.url, TIMEOUTS);
  }, 120_000);
  afterAll(async () => {
    server?.thaw();
    await testApp?.close();
    await server?.destroy();
  }, 60_000);

  it('answers 503 within the bound while frozen, health within a second, and recovers after SIGCONT', async () => {
    const http = testApp!.http;
    await http.get('/api/health').expect(200);
    await http.get('/api/assets').expect(200);
    const { agent } = await createLoggedInUser(testApp!);

    server.freeze();
    try {
      const health = await timed(() => http.get('/api/health'));
      expect(health.result.status).toBe(503);
      expect(health.ms).toBeLessThan(1_000);

      // More requests at once than the pool has idle connections: each is bounded all the same.
      const requests = await timed(() =>
        Promise.all(Array.from({ length: 6 }, () => http.get('/api/assets'))),
      );
      expect(requests.result.map((response) => response.status)).toEqual(Array(6).fill(503));
      expect(requests.result[0].body.error).toBe('Service temporarily unavailable, please retry shortly');
      expect(requests.ms).toBeLessThan(REQUEST_BOUND_MS);

      // A logged-in request fails already in the session store, before any controller.
      const loggedIn = await timed(() => agent.get('/api/users/me'));
      expect(loggedIn.result.status).toBe(503);
      expect(loggedIn.result.body.error).toBe('Service temporarily unavailable, please retry shortly');
      expect(loggedIn.ms).toBeLessThan(REQUEST_BOUND_MS);

      const healthAgain = await timed(() => http.get('/api/health'));
      expect(healthAgain.result.status).toBe(503);
      expect(healthAgain.ms).toBeLessThan(1_000);
    } finally {
      server.thaw();
    }

    const deadline = Date.now() + 15_000;
    let recovered = false;
    while (!recovered && Date.now() < deadline) {
      recovered = (await http.get('/api/health')).status === 200;
      if (!recovered) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(recovered).toBe(true);
    await http.get('/api/assets').expect(200);
    await agent.get('/api/users/me').expect(200);
  }, 90_000);
});
