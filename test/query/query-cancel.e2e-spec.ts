import { Logger } from '@nestjs/common';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { QueryRoles } from '../../src/query/run/query-roles.service';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

/**
 * A client that goes away stops its query in the database, long before the statement limit:
 * while PostgreSQL still works towards the first row, and while the rows stream.
 */
describe('POST /api/query: a closed connection cancels the query', () => {
  let testApp: TestApp;
  let server: Server;
  let key: string;
  let login: string;

  beforeAll(async () => {
    testApp = await createTestApp({ QUERY_TIMEOUT_MS: '60000' });
    const { user, agent } = await createLoggedInUser(testApp);
    await uploadDataset(agent);
    key = (
      await agent.post('/api/dev/apikey').set('Origin', TEST_ORIGIN).send({ email: user.email }).expect(200)
    ).body.api_key;
    login = await testApp.app.get(QueryRoles).userRole(user.id);
    server = testApp.app.getHttpServer();
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  });
  afterAll(async () => {
    await new Promise((closed) => server.close(closed));
    await testApp.close();
  });

  /** Queries of this suite only (the user's role is this suite's own; the mark is belt and braces). */
  const MARK = 1_000_000_000_007;
  const runningQueries = async (): Promise<number> =>
    (
      await testApp.dataSource.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE usename = $1 AND state = 'active' AND query LIKE '%' || $2 || '%'`,
        [login, String(MARK)],
      )
    )[0].n;

  const waitFor = async (condition: () => Promise<boolean>, withinMs: number, what: string) => {
    const deadline = Date.now() + withinMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`${what} within ${withinMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  /** Sends the query and answers a way to hang up, and the first bytes of the answer once they come. */
  const send = (sql: string, format = 'json') => {
    const { port } = server.address() as AddressInfo;
    const request = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/query',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
    });
    request.on('error', () => undefined);
    const firstBytes = new Promise<void>((arrived) =>
      request.on('response', (response) => response.once('data', () => arrived())),
    );
    request.end(JSON.stringify({ sql, format }));
    return { hangUp: () => request.destroy(), firstBytes };
  };

  it('stops a query still working towards its first row, and logs no failure for it', async () => {
    const warnings = jest.spyOn(Logger.prototype, 'warn');
    const errors = jest.spyOn(Logger.prototype, 'error');
    try {
      const { hangUp } = send(`SELECT count(*) FROM (SELECT generate_series(1, ${MARK})) s`);
      await waitFor(async () => (await runningQueries()) === 1, 10_000, 'the query did not start');
      hangUp();
      await waitFor(async () => (await runningQueries()) === 0, 10_000, 'the query still ran');
      // The request ends once its statement is stopped: give the answer's last step a moment.
      await new Promise((settled) => setTimeout(settled, 500));
      const logged = [...warnings.mock.calls, ...errors.mock.calls].map((call) => String(call[0]));
      expect(logged.filter((line) => line.includes('/api/query'))).toEqual([]);
    } finally {
      warnings.mockRestore();
      errors.mockRestore();
    }
  });

  it('stops a query whose rows are streaming', async () => {
    const { hangUp, firstBytes } = send(`SELECT generate_series(1, ${MARK}) AS g`, 'csv');
    await firstBytes;
    hangUp();
    await waitFor(async () => (await runningQueries()) === 0, 10_000, 'the query still ran');
  });
});
