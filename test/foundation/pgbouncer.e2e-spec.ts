import { Client } from 'pg';
import { runMigrations } from '../../src/database/migrate';
import { LONG_WORK_LIMITS_MS } from '../../src/database/sql';
import { ProductRefreshService } from '../../src/products/product-refresh.service';
import { QueryRunner } from '../../src/query/run/query-runner.service';
import { uploadDataset } from '../factories/asset.factory';
import { createConnector, simpleSpec } from '../factories/connector.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { FakeUpstream, sendJson, startFakeUpstream } from '../connectors/support/fake-upstream';
import { createTestDatabase, TestDatabase } from '../setup/test-database';
import { setApiKey } from '../stream/stream.factory';
import { PgBouncer } from '../support/pgbouncer';
import { createTestAppOn, TEST_ORIGIN, TestApp } from '../support/test-app';

/**
 * The deployment of docs/deployment.md: web processes through PgBouncer in transaction mode
 * (session state only on DATABASE_DIRECT_URL), a worker straight to PostgreSQL.
 */
describe('database: web processes through PgBouncer in transaction mode', () => {
  let database: TestDatabase;
  let bouncer: PgBouncer;
  let web: TestApp;
  let worker: TestApp;
  let upstream: FakeUpstream;

  beforeAll(async () => {
    upstream = await startFakeUpstream(async (_request, response) =>
      sendJson(response, [{ city: 'Berlin' }, { city: 'Lima' }, { city: 'Oslo' }]),
    );
    database = await createTestDatabase('dm_pooler');
    await runMigrations(database.url);
    const direct = new URL(database.url);
    bouncer = await PgBouncer.start({
      host: direct.hostname,
      port: Number(direct.port || 5432),
      password: decodeURIComponent(direct.password),
    });
    const pooled = bouncer.urlOf(direct.pathname.slice(1));
    [web, worker] = await Promise.all([
      createTestAppOn(pooled, {
        PROCESS_ROLE: 'web',
        DATABASE_DIRECT_URL: database.url,
        CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true',
      }),
      createTestAppOn(database.url, {
        PROCESS_ROLE: 'worker',
        SCHEDULER_ENABLED: 'true',
        RUN_QUEUE_POLL_MS: '100',
        CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true',
      }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([web?.close(), worker?.close()]);
    await bouncer?.stop();
    await upstream?.close();
    await database?.drop();
  });

  it("the web process's pool really goes through the pooler", () => {
    expect((web.dataSource.options as { url: string }).url).toContain(`:${bouncer.port}/`);
  });

  it('logs in, uploads, previews, streams, answers OData and runs a connector through it', async () => {
    const { user, agent } = await createLoggedInUser(web);
    const id = await uploadDataset(agent, { title: 'Pooled rows' }, 'name,amount\nalpha,1\nbeta,2\n');
    const preview = await agent.get(`/api/assets/${id}/data`).expect(200);
    expect(preview.body.rows).toEqual([
      { name: 'alpha', amount: 1 },
      { name: 'beta', amount: 2 },
    ]);
    const apiKey = await setApiKey(web.dataSource, user.id);
    const csv = await agent.get(`/api/stream/data/${id}?format=csv`).set('X-API-Key', apiKey).expect(200);
    expect(csv.text.trim().split(/\r?\n/)).toHaveLength(3);
    const odata = await agent.get('/api/odata').set('X-API-Key', apiKey).expect(200);
    expect(JSON.stringify(odata.body)).toContain('Pooled');

    const connector = await createConnector(web.dataSource, { spec: simpleSpec(upstream.origin) });
    const activated = await agent
      .post('/api/connectors/activate')
      .set('Origin', TEST_ORIGIN)
      .send({ connector_id: connector.id })
      .expect(201);
    const run = await agent
      .post(`/api/connectors/run/${activated.body.id}`)
      .set('Origin', TEST_ORIGIN)
      .expect(200);
    expect(run.body).toMatchObject({ rowCount: 3 });
  });

  it('leaves no setting of long work on the pool’s server connections (set for one transaction only)', async () => {
    const refreshes = web.app.get(ProductRefreshService);
    // Publish, accept and dismiss of a schema change run their work like this, many at once.
    await Promise.all(
      Array.from({ length: 60 }, () => refreshes.inTransaction((sql) => sql('SELECT pg_sleep(0.01)'))),
    );
    // Twenty transactions open at once hold every server connection of the pool (default_pool_size).
    const clients = Array.from(
      { length: 20 },
      () => new Client({ connectionString: bouncer.urlOf(poolName()) }),
    );
    try {
      await Promise.all(clients.map((client) => client.connect()));
      const limits = await Promise.all(
        clients.map(async (client) => {
          await client.query('BEGIN');
          const { rows } = await client.query<{ ms: string }>(
            `SELECT setting AS ms FROM pg_settings WHERE name = 'statement_timeout'`,
          );
          return Number(rows[0].ms);
        }),
      );
      expect(limits.filter((limit) => limit === LONG_WORK_LIMITS_MS.connectorWrite)).toEqual([]);
    } finally {
      await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
    }
  });

  it("runs a user's SQL (its own role) and reads an OData entity set with the documented pooler", async () => {
    const { user, agent } = await createLoggedInUser(web);
    const id = await uploadDataset(agent, { title: 'Pooled query' }, 'name,amount\nalpha,1\nbeta,2\n');
    const readable = (await agent.get(`/api/assets/${id}`).expect(200)).body.readable_name;
    const answer = await agent
      .post('/api/query')
      .set('Origin', TEST_ORIGIN)
      .send({ sql: `SELECT sum(amount) AS total FROM ${readable}` })
      .expect(200);
    expect(answer.body.rows.map(String)).toEqual(['3']);
    const apiKey = await setApiKey(web.dataSource, user.id);
    const odata = await agent.get(`/api/odata/${readable}`).set('X-API-Key', apiKey).expect(200);
    expect(odata.body.value.map((row: { name: string }) => row.name)).toEqual(['alpha', 'beta']);
  });

  it('cancels an abandoned query on its server process, not on the pooler’s id', async () => {
    const hungUp = new AbortController();
    const marker = `pooled_cancel_${Date.now()}`;
    const running = web.app
      .get(QueryRunner)
      .open({ connectionString: bouncer.urlOf(poolName()) }, `SELECT pg_sleep(60) AS ${marker}`, {
        timeoutMs: 60_000,
        rowLimit: 10,
        explain: false,
        memoryBudgetKb: 256 * 1024,
        output: 'rows',
        hungUp: hungUp.signal,
        slots: { userKey: marker, maxConcurrent: 4, queueMs: 1000 },
      });
    running.catch(() => undefined);
    const activeSleeps = async () =>
      (
        await worker.dataSource.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1`,
          [`%pg_sleep(60) AS ${marker}%`],
        )
      )[0].n as number;
    await waitFor(async () => (await activeSleeps()) > 0, 'the query to run');
    hungUp.abort();
    await expect(running).rejects.toBeDefined();
    await waitFor(async () => (await activeSleeps()) === 0, 'the query to stop on the server', 5_000);
  });

  const poolName = () => new URL(database.url).pathname.slice(1);
});

/** Polls `condition` until true, at most `deadlineMs`. */
async function waitFor(condition: () => Promise<boolean>, what: string, deadlineMs = 20_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
