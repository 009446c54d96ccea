import { Client } from 'pg';
import { runMigrations } from '../../src/database/migrate';
import { ReplicatedPostgres } from '../support/replicated-postgres';
import { createTestAppOn, TestApp } from '../support/test-app';

const DATABASE = 'dm_replication_health';
/** Longest the health check may take to notice the replica gone or back. */
const NOTICE_BOUND_MS = 60_000;

/**
 * GET /api/health while a replica is missing (docs/deployment.md, "Automatic failover"): 200
 * "degraded" (the process serves, a load balancer keeps it), then "ok" again once it is back.
 */
describe('health: degraded while a replica is missing', () => {
  let cluster: ReplicatedPostgres;
  let testApp: TestApp;

  beforeAll(async () => {
    cluster = await ReplicatedPostgres.start();
    const admin = new Client({ connectionString: cluster.primaryUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${DATABASE}`);
    await admin.end();
    await runMigrations(cluster.urlOf(cluster.primaryPort, DATABASE));
    testApp = await createTestAppOn(cluster.urlOf(cluster.primaryPort, DATABASE), {
      DATABASE_READ_URL: cluster.urlOf(cluster.replicaPort, DATABASE),
      DATABASE_READ_MAX_LAG_MS: '1000',
      DATABASE_EXPECTED_REPLICAS: '1',
    });
  }, NOTICE_BOUND_MS);

  afterAll(async () => {
    await testApp?.close();
    await cluster?.destroy();
  });

  /** Polls GET /api/health (always 200 here) until it answers `expected`. */
  async function healthBecomes(expected: Record<string, unknown>): Promise<void> {
    const deadline = Date.now() + NOTICE_BOUND_MS;
    for (;;) {
      const response = await testApp.http.get('/api/health').expect(200);
      if (JSON.stringify(response.body) === JSON.stringify(expected)) return;
      if (Date.now() > deadline) expect(response.body).toEqual(expected);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it(
    'says degraded with the replica stopped and ok once it streams again',
    async () => {
      const ok = { status: 'ok', database: 'up', replica: 'up', replicas_streaming: 1 };
      await healthBecomes(ok);
      await cluster.stopReplica();
      await healthBecomes({ status: 'degraded', database: 'up', replica: 'behind', replicas_streaming: 0 });
      await cluster.startReplica();
      await healthBecomes(ok);
    },
    3 * NOTICE_BOUND_MS,
  );
});
