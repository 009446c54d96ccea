import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { FakeUpstream, sendJson, startFakeUpstream } from '../connectors/support/fake-upstream';
import { createConnector, simpleSpec } from '../factories/connector.factory';
import { createUser, TestUser } from '../factories/user.factory';
import { PgBouncer } from '../support/pgbouncer';
import { ReplicatedPostgres } from '../support/replicated-postgres';
import { AppProcess, freePort, stopAllApps } from './support/app-process';
import { waitFor } from './support/database';
import { HaProxy } from './support/haproxy';
import { HttpClient } from './support/http-client';

const CLIENTS = 50;
/** Operations per client; the faults come at a third and at two thirds of all of them. */
const ROUNDS = Number(process.env.RELIABILITY_DEPLOYMENT_ROUNDS ?? 30);
const DATASETS = 4;
const DATABASE = 'marketplace';

/** What one client saw: the datasets it holds by its own answered writes, and what failed. */
interface ClientLog {
  user: TestUser;
  held: Set<string>;
  /** A write without an answer: whether it happened is unknown, so its holdings are not compared. */
  unsure: boolean;
  failures: string[];
}

/** Statuses a request may meet while a web process dies or the replica stops: the proxy's or the app's "try again". */
const TRANSIENT = /^(502|503|network)/;

describe(`reliability: the deployment of docs/deployment.md under ${CLIENTS} clients`, () => {
  let cluster: ReplicatedPostgres;
  let bouncer: PgBouncer;
  let proxy: HaProxy;
  let webs: AppProcess[];
  let worker: AppProcess;
  let primary: DataSource;
  let upstream: FakeUpstream;
  // Answers to /held wait until the test lets them go: a run is mid-fetch when its worker is killed.
  let heldAnswers: Promise<void> = Promise.resolve();
  let releaseHeldAnswers: () => void = () => undefined;
  const workerEnv = { SCHEDULER_ENABLED: 'true', RUN_QUEUE_POLL_MS: '200', SCHEDULER_TICK_SECONDS: '1' };

  beforeAll(async () => {
    upstream = await startFakeUpstream(async (request, response) => {
      if (request.url.pathname === '/held') await heldAnswers;
      sendJson(response, [{ city: 'Berlin' }, { city: 'Lima' }, { city: 'Oslo' }]);
    });
    cluster = await ReplicatedPostgres.start();
    const admin = new Client({ connectionString: cluster.primaryUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${DATABASE}`);
    await admin.end();
    bouncer = await PgBouncer.start({ host: '127.0.0.1', port: cluster.primaryPort });
    const direct = cluster.urlOf(cluster.primaryPort, DATABASE);
    // The worker starts first and migrates; it talks to PostgreSQL directly (docs/deployment.md, Pooler).
    worker = await AppProcess.start({
      name: 'deployment-worker',
      databaseUrl: direct,
      worker: true,
      env: workerEnv,
    });
    const proxyPort = await freePort();
    const webEnv = {
      PROCESS_ROLE: 'web',
      DATABASE_DIRECT_URL: direct,
      DATABASE_READ_URL: cluster.urlOf(cluster.replicaPort, DATABASE),
      DATABASE_READ_MAX_LAG_MS: '1000',
      APP_ORIGIN: `http://127.0.0.1:${proxyPort}`,
    };
    webs = await Promise.all(
      [1, 2].map((index) =>
        AppProcess.start({
          name: `deployment-web-${index}`,
          databaseUrl: bouncer.urlOf(DATABASE),
          env: webEnv,
        }),
      ),
    );
    proxy = await HaProxy.start(
      webs.map((web) => web.port),
      proxyPort,
    );
    primary = new DataSource({ type: 'postgres', url: direct, extra: { max: 4 } });
    await primary.initialize();
  });

  afterAll(async () => {
    releaseHeldAnswers();
    await stopAllApps();
    await proxy?.stop();
    await bouncer?.stop();
    if (primary?.isInitialized) await primary.destroy();
    await cluster?.destroy();
    await upstream?.close();
  });

  async function loggedIn(user: TestUser): Promise<HttpClient> {
    const http = new HttpClient(proxy.baseUrl);
    await http.login(user.email, user.password);
    return http;
  }

  /** One request; a thrown fetch (connection reset by a dying process) counts as "network". */
  async function attempt(http: HttpClient, method: string, path: string, json?: unknown) {
    try {
      return await http.send<{ removed?: boolean }>(method, path, json === undefined ? {} : { json });
    } catch (error) {
      return { status: 0, text: String(error), body: {} };
    }
  }

  async function runClient(log: ClientLog, http: HttpClient, datasets: string[], progress: () => void) {
    for (let round = 0; round < ROUNDS; round++) {
      const dataset = datasets[(round + log.user.email.length) % datasets.length];
      const [method, path, json] =
        round % 3 === 0
          ? ['GET', '/api/assets?limit=20']
          : round % 3 === 1
            ? ['GET', `/api/assets/${dataset}/data?limit=5`]
            : log.held.has(dataset)
              ? ['POST', '/api/access/remove', { assetId: dataset }]
              : ['POST', '/api/access/grant', { assetId: dataset }];
      const answer = await attempt(http, method, path, json);
      if (answer.status === 200) {
        if (path === '/api/access/grant') log.held.add(dataset);
        if (path === '/api/access/remove') log.held.delete(dataset);
      } else {
        log.failures.push(
          // A reset connection has no status: it reads "network …", like a 502 or 503 one that says "try again".
          `${answer.status || 'network'} ${method} ${path} ${answer.text.slice(0, 120)}`,
        );
        if (method === 'POST') log.unsure = true;
      }
      progress();
    }
  }

  it('keeps serving through a web process killed and the replica stopped; counters exact afterwards', async () => {
    const publisher = await createUser(primary);
    const publisherHttp = await loggedIn(publisher);
    const datasets: string[] = [];
    for (let index = 1; index <= DATASETS; index++) {
      const answer = await publisherHttp.uploadCsv(`city,value\nBerlin,${index}\nLima,2\nOslo,3\n`, {
        title: `Deployment ${index}`,
        price: '0',
        is_public: 'true',
      });
      expect(answer.status).toBe(201);
      datasets.push(answer.body.id);
    }
    const users = [];
    for (let index = 0; index < CLIENTS; index++) users.push(await createUser(primary));
    const logs: ClientLog[] = users.map((user) => ({ user, held: new Set(), unsure: false, failures: [] }));
    const clients = await Promise.all(users.map((user) => loggedIn(user)));

    let done = 0;
    const total = CLIENTS * ROUNDS;
    const reached = (share: number) =>
      waitFor(`${share} of the load`, async () => (done >= total * share ? true : undefined), 600_000);
    const load = Promise.all(
      logs.map((log, index) => runClient(log, clients[index], datasets, () => (done += 1))),
    );
    await reached(1 / 3);
    await webs[0].kill();
    await reached(2 / 3);
    await cluster.stopReplica();
    await load;

    const failures = logs.flatMap((log) => log.failures);
    // Only what was in flight on the killed process or on the replica's connections may fail, and only as "try again".
    expect(failures.filter((failure) => !TRANSIENT.test(failure))).toEqual([]);
    expect(failures.length).toBeLessThanOrEqual(2 * CLIENTS);
    // The surviving web process noticed the replica gone and read from the primary.
    expect(webs[1].output.filter((line) => line.includes('Read replica down')).length).toBeGreaterThanOrEqual(
      1,
    );

    // Every dataset's subscriber count is exactly its holders.
    const counts: Array<{ id: string; subscriber_count: number; holders: number }> = await primary.query(
      `SELECT a.id, a.subscriber_count,
              (SELECT count(*)::int FROM access_grants g
                WHERE g.asset_id = a.id AND g.user_id IS DISTINCT FROM a.owner_id) AS holders
         FROM assets a`,
    );
    expect(counts.filter((row) => row.subscriber_count !== row.holders)).toEqual([]);
    // Each client whose every write was answered holds exactly what its answers said.
    for (const log of logs.filter((entry) => !entry.unsure)) {
      const grants: Array<{ asset_id: string }> = await primary.query(
        `SELECT asset_id FROM access_grants WHERE user_id = $1`,
        [log.user.id],
      );
      expect(grants.map((grant) => grant.asset_id).sort()).toEqual([...log.held].sort());
    }

    // Run Now through the surviving web process is run by the worker to its end.
    const connector = await createConnector(primary, { spec: simpleSpec(upstream.origin) });
    const activated = await publisherHttp.expect<{ id: string }>('POST', '/api/connectors/activate', 201, {
      json: { connector_id: connector.id },
    });
    const run = await publisherHttp.expect<{ rowCount: number; run_id: string }>(
      'POST',
      `/api/connectors/run/${activated.id}`,
      200,
    );
    expect(run.rowCount).toBe(3);
    const [row] = await primary.query(`SELECT status, runner_id FROM connector_runs WHERE id = $1`, [
      run.run_id,
    ]);
    expect(row).toEqual({ status: 'succeeded', runner_id: expect.any(String) });
    // Web processes run nothing: the worker, the only one left that runs connectors, ran it.
    expect(worker.isRunning).toBe(true);
  });

  it('a worker killed in the middle of a run: a second worker runs it again to its end, nothing partial', async () => {
    const owner = await createUser(primary);
    const http = await loggedIn(owner);
    const connector = await createConnector(primary, {
      spec: simpleSpec(upstream.origin, { url_path: '/held' }),
    });
    const instance = await http.expect<{ id: string }>('POST', '/api/connectors/activate', 201, {
      json: { connector_id: connector.id },
    });
    heldAnswers = new Promise((resolve) => (releaseHeldAnswers = () => resolve()));
    const started = await http.expect<{ run_id: string }>(
      'POST',
      `/api/connectors/instance/${instance.id}/run`,
      202,
      {
        json: {},
      },
    );
    const requestsBefore = upstream.requests.length;
    await waitFor(
      'the worker fetching',
      async () => (upstream.requests.length > requestsBefore ? true : undefined),
      120_000,
    );

    const second = await AppProcess.start({
      name: 'deployment-worker-2',
      databaseUrl: cluster.urlOf(cluster.primaryPort, DATABASE),
      worker: true,
      env: workerEnv,
    });
    await worker.kill();
    releaseHeldAnswers();
    const finished = await waitFor(
      'the run to end',
      async () => {
        const [row] = await primary.query(
          `SELECT status, row_count, attempts FROM connector_runs WHERE id = $1`,
          [started.run_id],
        );
        return row.status === 'running' ? undefined : row;
      },
      180_000,
    );
    expect(finished).toEqual({ status: 'succeeded', row_count: 3, attempts: 2 });
    const [{ output_table_name: table }] = await primary.query(
      `SELECT output_table_name FROM connector_instances WHERE id = $1`,
      [instance.id],
    );
    const rows: Array<{ run_id: string; count: number }> = await primary.query(
      `SELECT _run_id AS run_id, count(*)::int AS count FROM data."${table}" GROUP BY _run_id`,
    );
    expect(rows).toEqual([{ run_id: started.run_id, count: 3 }]);
    expect(second.isRunning).toBe(true);
  });
});
