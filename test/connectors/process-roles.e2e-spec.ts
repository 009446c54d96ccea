import { request as httpRequest } from 'node:http';
import type { Server } from 'node:http';
import { SchedulerRegistry } from '@nestjs/schedule';
import { ConnectorRunsService } from '../../src/connectors/runs/connector-runs.service';
import { MAX_RUN_ATTEMPTS } from '../../src/connectors/runs/run-takeover';
import { ConnectorSchedulerService } from '../../src/connectors/scheduler/connector-scheduler.service';
import { runMigrations } from '../../src/database/migrate';
import { healthPort, startWorkerHealthServer } from '../../src/health/worker-health-server';
import { createConnector, simpleSpec, waitForRuns } from '../factories/connector.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestDatabase, TestDatabase } from '../setup/test-database';
import { createTestAppOn, TEST_ORIGIN, TestApp } from '../support/test-app';
import { FakeUpstream, sendJson, startFakeUpstream } from './support/fake-upstream';

/** GET on the worker's health port; answers the status and the parsed body. */
function getHealth(port: number, path: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    httpRequest({ host: '127.0.0.1', port, path }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
    })
      .on('error', reject)
      .end();
  });
}

describe('connectors: web and worker processes', () => {
  let database: TestDatabase;
  let web: TestApp;
  let impatientWeb: TestApp;
  let worker: TestApp;
  let upstream: FakeUpstream;

  beforeAll(async () => {
    upstream = await startFakeUpstream(async (_request, response) =>
      sendJson(response, [{ city: 'Berlin' }, { city: 'Lima' }]),
    );
    database = await createTestDatabase('dm_process_roles');
    await runMigrations(database.url);
    const shared = { CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true', SCHEDULER_ENABLED: 'true' };
    // The worker's timers never fire during the suite: the tests pick up queued runs themselves.
    [web, impatientWeb, worker] = await Promise.all([
      createTestAppOn(database.url, { ...shared, PROCESS_ROLE: 'web', SCHEDULER_TICK_SECONDS: '1' }),
      createTestAppOn(database.url, { ...shared, PROCESS_ROLE: 'web', RUN_NOW_WAIT_SECONDS: '1' }),
      createTestAppOn(database.url, {
        ...shared,
        PROCESS_ROLE: 'worker',
        SCHEDULER_TICK_SECONDS: '3600',
        RUN_QUEUE_POLL_MS: '60000',
      }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([web?.close(), impatientWeb?.close(), worker?.close()]);
    await upstream.close();
    await database?.drop();
  });

  async function connectedInstance(app: TestApp) {
    const { agent } = await createLoggedInUser(app);
    const connector = await createConnector(app.dataSource, { spec: simpleSpec(upstream.origin) });
    const { id } = (
      await agent
        .post('/api/connectors/activate')
        .set('Origin', TEST_ORIGIN)
        .send({ connector_id: connector.id })
        .expect(201)
    ).body;
    return { agent, id: id as string };
  }

  /** Lets the worker claim queued runs until it has claimed one. */
  async function workerPicksUpOne(): Promise<string> {
    const scheduler = worker.app.get(ConnectorSchedulerService);
    for (;;) {
      const [claimed] = await scheduler.pickUpQueued();
      if (claimed) return claimed;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async function instanceTable(instanceId: string): Promise<string> {
    const [row] = await web.dataSource.query(
      `SELECT output_table_name FROM connector_instances WHERE id = $1`,
      [instanceId],
    );
    return row.output_table_name;
  }

  async function runnerOf(runId: string): Promise<string | null> {
    const [row] = await web.dataSource.query(`SELECT runner_id FROM connector_runs WHERE id = $1`, [runId]);
    return row.runner_id;
  }

  it('Run Now on a web process is executed by a worker and answers its row count as before', async () => {
    const { agent, id } = await connectedInstance(web);
    const answer = agent
      .post(`/api/connectors/run/${id}`)
      .set('Origin', TEST_ORIGIN)
      .then((r) => r);
    const claimed = await workerPicksUpOne();
    const response = await answer;
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ rowCount: 2, run_id: claimed, warning: null });
    expect(await runnerOf(claimed)).toBe(worker.app.get(ConnectorRunsService).runnerId);
  });

  it('with no worker free in time, Run Now answers 202 and the queued run ends once a worker takes it', async () => {
    const { agent, id } = await connectedInstance(impatientWeb);
    const response = await agent.post(`/api/connectors/run/${id}`).set('Origin', TEST_ORIGIN).expect(202);
    expect(response.body).toEqual({ run_id: expect.any(String), status: 'running' });
    // A web process looking for dead runners leaves a queued run alone: it has no runner yet.
    await impatientWeb.app.get(ConnectorRunsService).recoverAbandoned();
    const queued = await agent.get(`/api/connectors/instance/${id}/runs`).expect(200);
    expect(queued.body[0]).toMatchObject({ id: response.body.run_id, status: 'running' });
    expect(await runnerOf(response.body.run_id)).toBeNull();

    expect(await workerPicksUpOne()).toBe(response.body.run_id);
    const [finished] = await waitForRuns(agent, id);
    expect(finished).toMatchObject({ id: response.body.run_id, status: 'succeeded', row_count: 2 });
  });

  it('a background run started on a web process carries its run-only settings to the worker', async () => {
    const { agent, id } = await connectedInstance(web);
    const started = await agent
      .post(`/api/connectors/instance/${id}/run`)
      .set('Origin', TEST_ORIGIN)
      .send({ override: true, settings: {} })
      .expect(202);
    const [sealed] = await web.dataSource.query(`SELECT queued_request FROM connector_runs WHERE id = $1`, [
      started.body.run_id,
    ]);
    expect(sealed.queued_request).toEqual(expect.any(String));
    expect(await workerPicksUpOne()).toBe(started.body.run_id);
    const [finished] = await waitForRuns(agent, id);
    expect(finished).toMatchObject({ id: started.body.run_id, status: 'succeeded', override: true });
    const [cleared] = await web.dataSource.query(`SELECT queued_request FROM connector_runs WHERE id = $1`, [
      started.body.run_id,
    ]);
    expect(cleared.queued_request).toBeNull();
  });

  /** A run as a worker killed mid-run leaves it: running, owned by a runner whose lock is gone. */
  async function runOfDeadWorker(instanceId: string, attempts = 1): Promise<string> {
    const [run] = await web.dataSource.query(
      `INSERT INTO connector_runs (instance_id, trigger, override, runner_id, heartbeat_at, attempts)
       VALUES ($1, 'manual', false, 'a-worker-killed-mid-run', now(), $2) RETURNING id`,
      [instanceId, attempts],
    );
    return run.id;
  }

  async function runRow(runId: string): Promise<{ status: string; attempts: number; row_count: number }> {
    const [row] = await web.dataSource.query(
      `SELECT status, attempts, row_count FROM connector_runs WHERE id = $1`,
      [runId],
    );
    return row;
  }

  it('a run whose worker died with nothing committed is taken over by another worker and ends right', async () => {
    const { agent, id } = await connectedInstance(web);
    const runId = await runOfDeadWorker(id);
    await worker.app.get(ConnectorRunsService).recoverAbandoned();
    expect(await runnerOf(runId)).toBeNull();
    expect(await workerPicksUpOne()).toBe(runId);
    const [finished] = await waitForRuns(agent, id);
    expect(finished).toMatchObject({ id: runId, status: 'succeeded', row_count: 2 });
    expect(await runRow(runId)).toMatchObject({ attempts: 2 });
    const [{ rows }] = await web.dataSource.query(
      `SELECT count(*)::int AS rows FROM data."${await instanceTable(id)}" WHERE _run_id = $1`,
      [runId],
    );
    expect(rows).toBe(2);
  });

  it("a dead worker's run with rows already committed, or started too often, is marked failed instead", async () => {
    const committed = await connectedInstance(web);
    const partial = await runOfDeadWorker(committed.id);
    const table = await instanceTable(committed.id);
    await web.dataSource.query(
      `CREATE TABLE IF NOT EXISTS data."${table}" (_run_id uuid, _fetched_at timestamptz)`,
    );
    await web.dataSource.query(`INSERT INTO data."${table}" (_run_id, _fetched_at) VALUES ($1, now())`, [
      partial,
    ]);
    const tired = await connectedInstance(web);
    const exhausted = await runOfDeadWorker(tired.id, MAX_RUN_ATTEMPTS);

    await worker.app.get(ConnectorRunsService).recoverAbandoned();
    expect(await runRow(partial)).toMatchObject({ status: 'failed', attempts: 1 });
    expect(await runRow(exhausted)).toMatchObject({ status: 'failed', attempts: MAX_RUN_ATTEMPTS });
  });

  it('a web process never ticks the scheduler, picks up runs or checks freshness; a worker does all three', () => {
    expect(web.app.get(SchedulerRegistry).getIntervals()).toEqual([]);
    expect(worker.app.get(SchedulerRegistry).getIntervals().sort()).toEqual([
      'connector-run-queue',
      'connector-scheduler',
      'live-product-freshness',
    ]);
  });

  it("a worker's health check answers on its own port and nothing else does there", async () => {
    let server: Server | undefined;
    try {
      server = await startWorkerHealthServer(worker.dataSource, 0);
      const port = healthPort(server);
      expect(await getHealth(port, '/health')).toEqual({
        status: 200,
        body: { status: 'ok', database: 'up', role: 'worker' },
      });
      expect((await getHealth(port, '/api/assets')).status).toBe(404);
    } finally {
      server?.close();
    }
  });
});
