import { stagingTableName } from '../../src/database/data-tables/data-table-names';
import { ConnectorRunsService } from '../../src/connectors/runs/connector-runs.service';
import { RUNNER_LOCK_NAMESPACE } from '../../src/connectors/runs/runner-liveness';
import { Client } from 'pg';
import { ConnectorSchedulerService } from '../../src/connectors/scheduler/connector-scheduler.service';
import { createConnector, simpleSpec } from '../factories/connector.factory';
import { createUser } from '../factories/user.factory';
import { runMigrations } from '../../src/database/migrate';
import { createTestDatabase, TestDatabase } from '../setup/test-database';
import { createTestAppOn, TestApp } from '../support/test-app';
import { FakeUpstream, sendJson, startFakeUpstream } from './support/fake-upstream';

/** Inserts an instance (with its table) straight into the database. */
async function insertInstance(
  testApp: TestApp,
  connectorId: string,
  ownerId: string,
  refreshInterval: number,
  lastStartedMinutesAgo: number | null,
): Promise<string> {
  const table = `ci_sched_${Math.random().toString(16).slice(2, 12)}`;
  const [row] = await testApp.dataSource.query(
    `INSERT INTO connector_instances (connector_id, owner_id, title, refresh_interval, output_table_name, last_run_started_at)
     VALUES ($1, $2, 'Scheduled', $3, $4, CASE WHEN $5::int IS NULL THEN NULL ELSE now() - make_interval(mins => $5::int) END)
     RETURNING id`,
    [connectorId, ownerId, refreshInterval, table, lastStartedMinutesAgo],
  );
  await testApp.dataSource.query(
    `CREATE TABLE data."${table}" (_run_id uuid NOT NULL, _fetched_at timestamptz NOT NULL)`,
  );
  return row.id;
}

describe('connectors: scheduler across processes', () => {
  let database: TestDatabase;
  let first: TestApp;
  let second: TestApp;
  let upstream: FakeUpstream;
  // Answers to /held wait until the test lets them go, so a run is still going when it looks.
  let heldAnswers = Promise.resolve();
  let releaseHeldAnswers: () => void = () => undefined;

  beforeAll(async () => {
    upstream = await startFakeUpstream(async (request, response) => {
      if (request.url.pathname === '/held') await heldAnswers;
      else await new Promise((resolve) => setTimeout(resolve, 30));
      sendJson(response, [{ value: 1 }]);
    });
    database = await createTestDatabase('dm_scheduler');
    await runMigrations(database.url);
    const env = {
      SCHEDULER_ENABLED: 'true',
      // Ticks only when a test calls tick(): a timer tick landing mid-test would claim what the test claims.
      SCHEDULER_TICK_SECONDS: '3600',
      CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true',
    };
    [first, second] = await Promise.all([
      createTestAppOn(database.url, env),
      createTestAppOn(database.url, env),
    ]);
  });
  afterAll(async () => {
    releaseHeldAnswers();
    await Promise.all([first?.close(), second?.close()]);
    await upstream.close();
    await database?.drop();
  });

  async function waitUntilIdle(ids: string[]): Promise<void> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const [row] = await first.dataSource.query(
        `SELECT count(*)::int AS running FROM connector_runs WHERE instance_id = ANY($1) AND status = 'running'`,
        [ids],
      );
      if (row.running === 0) return;
      if (Date.now() > deadline) throw new Error('scheduled runs did not finish');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('two app instances ticking at once run each due instance exactly once, and skip what is not due', async () => {
    const owner = await createUser(first.dataSource, { proUser: true });
    const connector = await createConnector(first.dataSource, { spec: simpleSpec(upstream.origin) });
    const due = [];
    for (let index = 0; index < 6; index++)
      due.push(await insertInstance(first, connector.id, owner.id, 5, index % 2 === 0 ? null : 10));
    const notDue = await insertInstance(first, connector.id, owner.id, 60, 10);
    const manual = await insertInstance(first, connector.id, owner.id, 0, null);
    upstream.requests.splice(0);

    const schedulers = [first, second].map((app) => app.app.get(ConnectorSchedulerService));
    // Four ticks racing: two per process (the per-process cap of 4 concurrent runs leaves work for the other).
    const started = (
      await Promise.all([...schedulers, ...schedulers].map((scheduler) => scheduler.tick()))
    ).flat();
    await waitUntilIdle([...due, notDue, manual]);
    // A later tick finds nothing due any more.
    expect((await Promise.all(schedulers.map((scheduler) => scheduler.tick()))).flat()).toEqual([]);

    expect(started).toHaveLength(6);
    const runs: Array<{ instance_id: string; n: number; status: string }> = await first.dataSource.query(
      `SELECT instance_id, count(*)::int AS n, min(status) AS status FROM connector_runs
       WHERE instance_id = ANY($1) AND trigger = 'schedule' GROUP BY instance_id`,
      [[...due, notDue, manual]],
    );
    expect(runs.map((run) => run.instance_id).sort()).toEqual([...due].sort());
    expect(runs.every((run) => run.n === 1 && run.status === 'succeeded')).toBe(true);
    expect(upstream.requests).toHaveLength(6);
  });

  it('concurrent claims from both processes never hand out the same instance', async () => {
    const owner = await createUser(first.dataSource, { proUser: true });
    const connector = await createConnector(first.dataSource, { spec: simpleSpec(upstream.origin) });
    const ids = [];
    for (let index = 0; index < 20; index++)
      ids.push(await insertInstance(first, connector.id, owner.id, 1, null));
    const services = [first, second].map((app) => app.app.get(ConnectorRunsService));
    const claims = await Promise.all(
      Array.from({ length: 8 }, (_, index) => services[index % 2].claimDue(5)),
    );
    const claimed = claims.flat().map((claim) => claim.instanceId);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect([...claimed].sort()).toEqual([...ids].sort());
    // Claimed runs are executed by whoever claimed them.
    claims.forEach((list, index) => list.forEach((request) => services[index % 2].launch(request)));
    await waitUntilIdle(ids);
  });

  it("never takes another live process's run for a dead one, however fresh its heartbeat", async () => {
    const owner = await createUser(first.dataSource, { proUser: true });
    const connector = await createConnector(first.dataSource, {
      spec: simpleSpec(upstream.origin, { url_path: '/held' }),
    });
    const id = await insertInstance(first, connector.id, owner.id, 0, null);
    heldAnswers = new Promise((resolve) => (releaseHeldAnswers = () => resolve()));
    const runs = first.app.get(ConnectorRunsService);
    const run = await runs.start(id, 'manual', false);
    runs.launch({ runId: run.id, instanceId: id, override: false });
    await second.app.get(ConnectorRunsService).recoverAbandoned();
    const [during] = await second.dataSource.query(`SELECT status FROM connector_runs WHERE id = $1`, [
      run.id,
    ]);
    expect(during.status).toBe('running');
    releaseHeldAnswers();
    await waitUntilIdle([id]);
    const [after] = await second.dataSource.query(`SELECT status FROM connector_runs WHERE id = $1`, [
      run.id,
    ]);
    expect(after.status).toBe('succeeded');
  });

  it('refuses to schedule for an instance that already has a running run', async () => {
    const owner = await createUser(first.dataSource, { proUser: true });
    const connector = await createConnector(first.dataSource, { spec: simpleSpec(upstream.origin) });
    const id = await insertInstance(first, connector.id, owner.id, 1, null);
    const runs = first.app.get(ConnectorRunsService);
    // A run of this very process, so no scheduler tick takes it for a dead one meanwhile.
    await first.dataSource.query(
      `INSERT INTO connector_runs (instance_id, trigger, status, runner_id, heartbeat_at) VALUES ($1, 'manual', 'running', $2, now())`,
      [id, runs.runnerId],
    );
    const claimed = await runs.claimDue(100);
    expect(claimed.map((claim) => claim.instanceId)).not.toContain(id);
    await first.dataSource.query(`DELETE FROM connector_runs WHERE instance_id = $1`, [id]);
  });
});

/** Takes the liveness lock a live process holds for its runner id, on a connection of its own. */
async function holdLivenessLock(url: string, runnerId: string): Promise<{ release(): Promise<void> }> {
  const client = new Client({ connectionString: url });
  await client.connect();
  await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [RUNNER_LOCK_NAMESPACE, runnerId]);
  return { release: () => client.end() };
}

describe('connectors: runs left behind by a dead process', () => {
  // A database of its own: an app starting on the shared one recovers dead runs too, and would do it
  // while this test is still setting them up.
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('dm_recovery');
    await runMigrations(database.url);
  });
  afterAll(() => database?.drop());

  it('are marked failed when an app process starts, while runs of live processes stay running however old their heartbeat', async () => {
    const setup = await createTestAppOn(database.url);
    const owner = await createUser(setup.dataSource);
    const connector = await createConnector(setup.dataSource);
    const suffix = Math.random().toString(36).slice(2);
    const runners = {
      killedLongAgo: `killed-long-ago-${suffix}`,
      killedJustNow: `killed-just-now-${suffix}`,
      alive: `alive-${suffix}`,
      aliveButStarved: `alive-but-starved-${suffix}`,
    };
    // Live processes hold their locks before their runs exist, as ConnectorRunsService does.
    const locks = await Promise.all(
      [runners.alive, runners.aliveButStarved].map((runnerId) => holdLivenessLock(database.url, runnerId)),
    );
    const insertRun = async (runnerId: string, heartbeatAgo: string) => {
      const instanceId = await insertInstance(setup, connector.id, owner.id, 0, null);
      const [run] = await setup.dataSource.query(
        `INSERT INTO connector_runs (instance_id, trigger, status, started_at, runner_id, heartbeat_at)
         VALUES ($1, 'schedule', 'running', now() - interval '10 minutes', $2, now() - $3::interval)
         RETURNING id, instance_id`,
        [instanceId, runnerId, heartbeatAgo],
      );
      return run as { id: string; instance_id: string };
    };
    const killedLongAgo = await insertRun(runners.killedLongAgo, '9 minutes');
    // Its process died a moment ago: the heartbeat is fresh, but nobody holds its liveness lock.
    const killedJustNow = await insertRun(runners.killedJustNow, '1 second');
    const alive = await insertRun(runners.alive, '1 second');
    // A process starved of CPU misses its heartbeats, but still holds its lock: its run goes on.
    const aliveButStarved = await insertRun(runners.aliveButStarved, '9 minutes');
    // What a dead process left half-written: the run's staging table beside the instance's table.
    const [{ output_table_name: deadTable }] = await setup.dataSource.query(
      `SELECT output_table_name FROM connector_instances WHERE id = $1`,
      [killedJustNow.instance_id],
    );
    const staging = stagingTableName(deadTable, killedJustNow.id);
    await setup.dataSource.query(
      `CREATE TABLE data."${staging}" (_run_id uuid NOT NULL, _fetched_at timestamptz NOT NULL)`,
    );
    await setup.close();

    const restarted = await createTestAppOn(database.url);
    try {
      const statusOf = async (run: { id: string }) =>
        (
          await restarted.dataSource.query(
            `SELECT status, error, finished_at IS NOT NULL AS finished FROM connector_runs WHERE id = $1`,
            [run.id],
          )
        )[0];
      const failed = {
        status: 'failed',
        error: 'Run interrupted: the process running it stopped before it finished',
        finished: true,
      };
      expect(await statusOf(killedLongAgo)).toEqual(failed);
      expect(await statusOf(killedJustNow)).toEqual(failed);
      const running = { status: 'running', error: null, finished: false };
      expect(await statusOf(alive)).toEqual(running);
      expect(await statusOf(aliveButStarved)).toEqual(running);
      const leftover = await restarted.dataSource.query(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'data' AND table_name = $1`,
        [staging],
      );
      expect(leftover).toEqual([]);
    } finally {
      await Promise.all(locks.map((lock) => lock.release()));
      await restarted.close();
    }
  });
});
