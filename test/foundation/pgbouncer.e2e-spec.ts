import { Client } from 'pg';
import { runMigrations } from '../../src/database/migrate';
import { LONG_WORK_LIMITS_MS } from '../../src/database/sql';
import { ProductRefreshService } from '../../src/products/product-refresh.service';
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
    bouncer = await PgBouncer.start({ host: direct.hostname, port: Number(direct.port || 5432) });
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

  const poolName = () => new URL(database.url).pathname.slice(1);
});
