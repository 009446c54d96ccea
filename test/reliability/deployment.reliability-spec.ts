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
import { replicaCaughtUp, replicaScans } from './support/replica-watch';
import { ClientLog, LoadWindow, loadSummary, newClientLog, runClient } from './support/timed-load';

const CLIENTS = 50;
/** Length of the load; the three faults come at a quarter, half and three quarters of it. */
const LOAD_SECONDS = Number(process.env.RELIABILITY_DEPLOYMENT_SECONDS ?? 60);
const DATASETS = 4;
const DATABASE = 'marketplace';
/** Records of each of the two pages the connector run fetches. */
const PAGE = [{ city: 'Berlin' }, { city: 'Lima' }, { city: 'Oslo' }];
/** How long one awaited event may take on a busy machine (a process start, a run's end). */
const EVENT_TIMEOUT_MS = 180_000;

/** Statuses a request may meet while a web process dies or the replica stops: the proxy's or the app's "try again". */
const TRANSIENT = /^(502|503|network)/;

describe(`reliability: the deployment of docs/deployment.md under ${CLIENTS} clients for ${LOAD_SECONDS} s`, () => {
  let cluster: ReplicatedPostgres;
  let bouncer: PgBouncer;
  let proxy: HaProxy;
  let webs: AppProcess[];
  let worker: AppProcess;
  let primary: DataSource;
  let upstream: FakeUpstream;
  let directUrl: string;
  let replicaUrl: string;
  // The second page of the connector waits until the test lets it go: the run is mid-write when its worker is killed.
  let heldPage: Promise<void> = Promise.resolve();
  let releaseHeldPage: () => void = () => undefined;
  const workerEnv = { SCHEDULER_ENABLED: 'true', RUN_QUEUE_POLL_MS: '200', SCHEDULER_TICK_SECONDS: '1' };

  beforeAll(async () => {
    upstream = await startFakeUpstream(async (request, response) => {
      if (request.url.pathname !== '/paged') return sendJson(response, PAGE);
      if (request.url.searchParams.get('after') !== '2')
        return sendJson(response, { results: PAGE, meta: { next: '2' } });
      await heldPage;
      sendJson(response, { results: PAGE, meta: { next: null } });
    });
    cluster = await ReplicatedPostgres.start();
    const admin = new Client({ connectionString: cluster.primaryUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${DATABASE}`);
    await admin.end();
    bouncer = await PgBouncer.start({ host: '127.0.0.1', port: cluster.primaryPort });
    directUrl = cluster.urlOf(cluster.primaryPort, DATABASE);
    replicaUrl = cluster.urlOf(cluster.replicaPort, DATABASE);
    // The worker starts first and migrates; it talks to PostgreSQL directly (docs/deployment.md, Pooler).
    worker = await AppProcess.start({
      name: 'deployment-worker',
      databaseUrl: directUrl,
      worker: true,
      env: workerEnv,
    });
    const proxyPort = await freePort();
    const webEnv = {
      PROCESS_ROLE: 'web',
      DATABASE_DIRECT_URL: directUrl,
      DATABASE_READ_URL: replicaUrl,
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
    primary = new DataSource({ type: 'postgres', url: directUrl, extra: { max: 4 } });
    await primary.initialize();
    // Two PostgreSQL servers, a pooler, a proxy and three app starts, each with its own bound.
  }, 2 * EVENT_TIMEOUT_MS);

  afterAll(async () => {
    releaseHeldPage();
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

  async function publishDatasets(http: HttpClient): Promise<string[]> {
    const datasets: string[] = [];
    for (let index = 1; index <= DATASETS; index++) {
      const answer = await http.uploadCsv(`city,value\nBerlin,${index}\nLima,2\nOslo,3\n`, {
        title: `Deployment ${index}`,
        price: '0',
        is_public: 'true',
      });
      expect(answer.status).toBe(201);
      datasets.push(answer.body.id);
    }
    return datasets;
  }

  /**
   * A POST through the proxy, sent again while the proxy answers that no process is up (its own
   * 503 page: the request never reached the app, so sending it again cannot do it twice).
   */
  async function servedThroughProxy<T>(
    http: HttpClient,
    path: string,
    json: unknown,
    status: number,
  ): Promise<T> {
    const answer = await waitFor(
      `POST ${path} to reach a web process`,
      async () => {
        const sent = await http.send<T>('POST', path, { json });
        return sent.status === 503 && sent.text.includes('No server is available') ? undefined : sent;
      },
      EVENT_TIMEOUT_MS,
    );
    if (answer.status !== status) throw new Error(`POST ${path} answered ${answer.status}: ${answer.text}`);
    return answer.body;
  }

  /**
   * Starts a background run of two pages and kills its worker once the first page is being
   * written and the second asked for; a second worker, started while the first still runs it,
   * is to take the run over. Answers the run's id.
   */
  async function killWorkerMidRun(owner: HttpClient): Promise<{ runId: string; instanceId: string }> {
    const connector = await createConnector(primary, {
      spec: simpleSpec(upstream.origin, {
        url_path: '/paged',
        response_path: 'results',
        pagination: { type: 'cursor', cursor_param: 'after', cursor_path: 'meta.next' },
      }),
    });
    const instance = await servedThroughProxy<{ id: string }>(
      owner,
      '/api/connectors/activate',
      { connector_id: connector.id },
      201,
    );
    heldPage = new Promise((resolve) => (releaseHeldPage = () => resolve()));
    const asked = upstream.requests.length;
    const started = await servedThroughProxy<{ run_id: string }>(
      owner,
      `/api/connectors/instance/${instance.id}/run`,
      {},
      202,
    );
    await waitFor(
      'the worker to write the first page and ask for the second',
      async () =>
        upstream.requests.slice(asked).some((request) => request.url.searchParams.get('after') === '2')
          ? true
          : undefined,
      EVENT_TIMEOUT_MS,
    );
    const second = await AppProcess.start({
      name: 'deployment-worker-2',
      databaseUrl: directUrl,
      worker: true,
      env: workerEnv,
    });
    await worker.kill();
    releaseHeldPage();
    worker = second;
    return { runId: started.run_id, instanceId: instance.id };
  }

  it(
    'a web process killed, a worker killed mid-run and the replica stopped under load; counters exact afterwards',
    async () => {
      const publisher = await createUser(primary);
      const publisherHttp = await loggedIn(publisher);
      const datasets = await publishDatasets(publisherHttp);
      const users: TestUser[] = [];
      for (let index = 0; index < CLIENTS; index++) users.push(await createUser(primary));
      const logs: ClientLog[] = users.map(newClientLog);
      // One after the other: fifty password hashes at once would try the login's own limits, not the deployment.
      const clients: HttpClient[] = [];
      for (const user of users) clients.push(await loggedIn(user));
      // The catalogue is to come from the replica while it runs: it holds everything set up so far.
      await waitFor(
        'the replica to catch up',
        async () => ((await replicaCaughtUp(directUrl, replicaUrl)) ? true : undefined),
        EVENT_TIMEOUT_MS,
      );
      const replicaScansBefore = await replicaScans(replicaUrl, 'assets');

      const window = new LoadWindow(LOAD_SECONDS);
      const load = Promise.all(logs.map((log, index) => runClient(log, clients[index], datasets, window)));
      const moments: string[] = [];
      const faults = (async () => {
        await window.at(LOAD_SECONDS / 4);
        await webs[0].kill();
        moments.push(`web process killed at ${window.elapsed} s`);
        await window.at(LOAD_SECONDS / 2);
        const run = await killWorkerMidRun(publisherHttp);
        moments.push(`worker killed mid-run at ${window.elapsed} s`);
        await window.at((LOAD_SECONDS * 3) / 4);
        // Reads did go to the replica, so its stop moves them.
        await waitFor(
          'catalogue reads served by the replica',
          async () => ((await replicaScans(replicaUrl, 'assets')) > replicaScansBefore ? true : undefined),
          EVENT_TIMEOUT_MS,
        );
        await cluster.stopReplica();
        moments.push(`replica stopped at ${window.elapsed} s`);
        return run;
      })().finally(() => window.endFaults());
      // The load ends on its own once the faults are over (or failed): no request is cut off by the teardown.
      const [outcome] = await Promise.allSettled([faults, load]);
      console.log(loadSummary(logs, window, moments));
      if (outcome.status === 'rejected') throw outcome.reason;
      const run = outcome.value;

      const failures = logs.flatMap((log) => log.failures);
      // Only what was in flight on the killed process or on the replica's connections may fail, and only as "try again".
      expect(failures.filter((failure) => !TRANSIENT.test(failure))).toEqual([]);
      expect(failures.length).toBeLessThanOrEqual(2 * CLIENTS);
      // Every client went on working after the last fault: reads from the primary, writes through the survivor.
      expect(logs.filter((log) => log.afterFaults < 3)).toEqual([]);
      const done = logs.reduce((sum, log) => sum + log.done.catalogue + log.done.preview + log.done.write, 0);
      expect(done).toBeGreaterThan(CLIENTS * 6);
      // The surviving web process noticed the replica gone and read from the primary.
      expect(
        webs[1].output.filter((line) => line.includes('Read replica down')).length,
      ).toBeGreaterThanOrEqual(1);

      // Every dataset's subscriber count is exactly its holders, and nobody holds a dataset twice.
      const counts: Array<{ id: string; subscriber_count: number; holders: number }> = await primary.query(
        `SELECT a.id, a.subscriber_count,
              (SELECT count(*)::int FROM access_grants g
                WHERE g.asset_id = a.id AND g.user_id IS DISTINCT FROM a.owner_id) AS holders
         FROM assets a`,
      );
      expect(counts.filter((row) => row.subscriber_count !== row.holders)).toEqual([]);
      const doubled = await primary.query(
        `SELECT user_id, asset_id FROM access_grants GROUP BY user_id, asset_id HAVING count(*) > 1`,
      );
      expect(doubled).toEqual([]);
      // Each client whose every write was answered holds exactly what its answers said.
      const sure = logs.filter((entry) => !entry.unsure);
      expect(sure.length).toBeGreaterThanOrEqual(CLIENTS / 2);
      for (const log of sure) {
        const grants: Array<{ asset_id: string }> = await primary.query(
          `SELECT asset_id FROM access_grants WHERE user_id = $1`,
          [log.user.id],
        );
        expect(grants.map((grant) => grant.asset_id).sort()).toEqual([...log.held].sort());
      }

      // The killed worker's run was taken over by the second worker and ended right, its rows there once.
      const finished = await waitFor(
        'the taken-over run to end',
        async () => {
          const [row] = await primary.query(
            `SELECT status, row_count, attempts FROM connector_runs WHERE id = $1`,
            [run.runId],
          );
          return row.status === 'running' ? undefined : row;
        },
        EVENT_TIMEOUT_MS,
      );
      expect(finished).toEqual({ status: 'succeeded', row_count: 2 * PAGE.length, attempts: 2 });
      const [{ output_table_name: table }] = await primary.query(
        `SELECT output_table_name FROM connector_instances WHERE id = $1`,
        [run.instanceId],
      );
      const rows: Array<{ run_id: string; count: number }> = await primary.query(
        `SELECT _run_id AS run_id, count(*)::int AS count FROM data."${table}" GROUP BY _run_id`,
      );
      expect(rows).toEqual([{ run_id: run.runId, count: 2 * PAGE.length }]);

      // Run Now through the surviving web process is run to its end by the surviving worker.
      const connector = await createConnector(primary, { spec: simpleSpec(upstream.origin) });
      const activated = await publisherHttp.expect<{ id: string }>('POST', '/api/connectors/activate', 201, {
        json: { connector_id: connector.id },
      });
      const runNow = await publisherHttp.expect<{ rowCount: number; run_id: string }>(
        'POST',
        `/api/connectors/run/${activated.id}`,
        200,
      );
      expect(runNow.rowCount).toBe(PAGE.length);
      expect(worker.isRunning).toBe(true);
    },
    LOAD_SECONDS * 1000 + 4 * EVENT_TIMEOUT_MS,
  );
});
