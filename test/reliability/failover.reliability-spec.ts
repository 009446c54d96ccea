import { DataSource } from 'typeorm';
import { SERVICE_UNAVAILABLE_MESSAGE } from '../../src/common/middleware/database-unavailable.middleware';
import { FakeUpstream, sendJson, startFakeUpstream } from '../connectors/support/fake-upstream';
import { createConnector, simpleSpec } from '../factories/connector.factory';
import { createUser, TestUser } from '../factories/user.factory';
import { AppProcess, stopAllApps } from './support/app-process';
import { waitFor } from './support/database';
import { FailoverCluster } from './support/failover-cluster';
import { HttpClient } from './support/http-client';

/** Clients buying, uploading and running connectors at once (RELIABILITY_FAILOVER_CLIENTS to try fewer). */
const CLIENTS = Number(process.env.RELIABILITY_FAILOVER_CLIENTS ?? 20);
const PAID_DATASETS = 6;
const RECORDS = [{ city: 'Berlin' }, { city: 'Lima' }, { city: 'Oslo' }];
/** What the app may take from the leader's death until it serves again (docs/deployment.md). */
const SERVES_AGAIN_WITHIN_MS = 30_000;
/** The load goes on this long without a failure once the app serves again, to show it stays up. */
const STEADY_MS = 4_000;
/** Bound of each awaited event on a busy machine (a start, a failover, the runs' end). */
const EVENT_TIMEOUT_MS = 120_000;
/**
 * A notice claimed on the old leader whose claim's answer was lost with it waits for its claim to
 * lapse (two minutes, notification-mailer.service.ts) before it is mailed.
 */
const OUTBOX_TIMEOUT_MS = 150_000;
/** Answers that are a write done or, for a run, one already going (409): not failures. */
const DONE = new Set([200, 201, 202, 409]);

interface Outcome {
  kind: 'buy' | 'upload' | 'run';
  status: number;
  text: string;
  sentAt: number;
  answeredAt: number;
}

interface Client {
  user: TestUser;
  http: HttpClient;
  instanceId: string;
  held: Set<string>;
  /** A write without a clear answer: what it holds is not compared. */
  unsure: boolean;
  purchases: string[];
  uploads: string[];
  runs: string[];
  outcomes: Outcome[];
}

describe(`reliability: automatic failover (Patroni, etcd, HAProxy) under ${CLIENTS} clients`, () => {
  let cluster: FailoverCluster;
  let upstream: FakeUpstream;
  let web: AppProcess;
  let sql: DataSource;

  beforeAll(async () => {
    // Each page takes a moment: some runs are going when the leader dies.
    upstream = await startFakeUpstream(async (_request, response) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      sendJson(response, RECORDS);
    });
    cluster = await FailoverCluster.start();
    // The worker starts first and migrates; both talk to HAProxy, never to a node.
    await AppProcess.start({
      name: 'failover-worker',
      databaseUrl: cluster.writeUrl,
      worker: true,
      env: { SCHEDULER_ENABLED: 'true', RUN_QUEUE_POLL_MS: '200', SCHEDULER_TICK_SECONDS: '1' },
    });
    web = await AppProcess.start({
      name: 'failover-web',
      databaseUrl: cluster.writeUrl,
      env: {
        PROCESS_ROLE: 'web',
        DATABASE_READ_URL: cluster.readUrl,
        DATABASE_READ_MAX_LAG_MS: '1000',
        DATABASE_EXPECTED_REPLICAS: '2',
      },
    });
    sql = new DataSource({ type: 'postgres', url: cluster.writeUrl, extra: { max: 4 } });
    await sql.initialize();
  }, 2 * EVENT_TIMEOUT_MS);

  afterAll(async () => {
    await stopAllApps();
    if (sql?.isInitialized) await sql.destroy().catch(() => undefined);
    await cluster?.destroy();
    await upstream?.close();
  }, EVENT_TIMEOUT_MS);

  async function oneWrite(client: Client, round: number, datasets: string[]): Promise<void> {
    const kind = (['buy', 'upload', 'run'] as const)[round % 3];
    const dataset = datasets[(Math.floor(round / 3) + client.user.email.length) % datasets.length];
    const sentAt = Date.now();
    let answer: { status: number; text: string; body: unknown };
    try {
      if (kind === 'buy')
        answer = await client.http.send(
          'POST',
          client.held.has(dataset) ? '/api/access/remove' : '/api/access/grant',
          {
            json: { assetId: dataset },
          },
        );
      else if (kind === 'upload')
        answer = await client.http.uploadCsv(`city,value\nBerlin,${round}\nLima,2\n`, {
          title: `Failover ${round}`,
        });
      else
        answer = await client.http.send('POST', `/api/connectors/instance/${client.instanceId}/run`, {
          json: {},
        });
    } catch (error) {
      answer = { status: 0, text: String(error), body: {} };
    }
    client.outcomes.push({
      kind,
      status: answer.status,
      text: answer.text.slice(0, 200),
      sentAt,
      answeredAt: Date.now(),
    });
    const body = answer.body as { purchase?: { id: string }; id?: string; run_id?: string };
    if (!DONE.has(answer.status)) client.unsure = true;
    else if (kind === 'buy' && client.held.has(dataset)) client.held.delete(dataset);
    else if (kind === 'buy') {
      client.held.add(dataset);
      if (body.purchase?.id) client.purchases.push(body.purchase.id);
    } else if (kind === 'upload') client.uploads.push(body.id!);
    else if (answer.status === 202) client.runs.push(body.run_id!);
  }

  it(
    'kill -9 of the leader: 503 with a clear message, then served again within 30 s; no answered write lost; cut runs end and run again; sessions kept',
    async () => {
      const publisher = new HttpClient(web.baseUrl);
      const owner = await createUser(sql);
      await publisher.login(owner.email, owner.password);
      const datasets: string[] = [];
      for (let index = 0; index < PAID_DATASETS; index++) {
        const answer = await publisher.uploadCsv('city,value\nBerlin,1\n', {
          title: `Paid ${index}`,
          price: '2.50',
          is_public: 'true',
        });
        expect(answer.status).toBe(201);
        datasets.push(answer.body.id);
      }
      const connector = await createConnector(sql, { spec: simpleSpec(upstream.origin) });
      const clients: Client[] = [];
      for (let index = 0; index < CLIENTS; index++) {
        const user = await createUser(sql);
        const http = new HttpClient(web.baseUrl);
        await http.login(user.email, user.password);
        const instance = await http.expect<{ id: string }>('POST', '/api/connectors/activate', 201, {
          json: { connector_id: connector.id },
        });
        clients.push({
          user,
          http,
          instanceId: instance.id,
          held: new Set(),
          unsure: false,
          purchases: [],
          uploads: [],
          runs: [],
          outcomes: [],
        });
      }

      let stopped = false;
      const load = Promise.all(
        clients.map(async (client) => {
          for (let round = 0; !stopped; round++) {
            await oneWrite(client, round, datasets);
            // A breath between writes: twenty clients must not starve the three nodes of CPU.
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }),
      );
      let killedAt = 0;
      let oldLeader = '';
      try {
        // Every client is writing, and a run is going, when the leader dies.
        await waitFor(
          'every client to have written',
          async () => (clients.every((client) => client.outcomes.length >= 3) ? true : undefined),
          EVENT_TIMEOUT_MS,
        );
        await waitFor(
          'a connector run to be going',
          async () =>
            (await sql.query(`SELECT 1 FROM connector_runs WHERE status = 'running' LIMIT 1`)).length > 0
              ? true
              : undefined,
          EVENT_TIMEOUT_MS,
          50,
        );
        const before = await cluster.members();
        oldLeader = before.find((member) => member.role === 'leader')!.name;
        const syncStandby = before.find((member) => member.role === 'sync_standby')?.name;
        killedAt = Date.now();
        await cluster.killNode(oldLeader);
        const newLeader = await waitFor(
          'a new leader',
          async () => {
            const leader = await cluster.leader();
            return leader && leader !== oldLeader ? leader : undefined;
          },
          EVENT_TIMEOUT_MS,
        );
        // Only the synchronous standby, which has every answered commit, may take over.
        expect(newLeader).toBe(syncStandby);
        // The load goes on until the app has served without a failure for a while.
        const failures = () =>
          clients.flatMap((client) => client.outcomes).filter((outcome) => !DONE.has(outcome.status));
        await waitFor(
          'the app to serve without failures again',
          async () => {
            const last = Math.max(killedAt, ...failures().map((outcome) => outcome.answeredAt));
            return Date.now() - last > STEADY_MS ? true : undefined;
          },
          EVENT_TIMEOUT_MS,
        );
      } finally {
        stopped = true;
        await load;
      }

      const outcomes = clients.flatMap((client) => client.outcomes);
      const failed = outcomes.filter((outcome) => !DONE.has(outcome.status));
      const lastFailure = Math.max(killedAt, ...failed.map((outcome) => outcome.answeredAt));
      const firstFailure = Math.min(lastFailure, ...failed.map((outcome) => outcome.sentAt));
      const purchases = clients.flatMap((client) => client.purchases);
      console.log(
        `failover under ${CLIENTS} clients: ${outcomes.length} writes, ${failed.length} answered 503 from ` +
          `${((firstFailure - killedAt) / 1000).toFixed(1)} s to ${((lastFailure - killedAt) / 1000).toFixed(1)} s after the kill; ` +
          `${purchases.length} purchases acknowledged`,
      );
      // During the switch the app says so plainly: 503 with its "retry shortly" message, nothing else.
      expect(
        failed.filter(
          (outcome) => outcome.status !== 503 || !outcome.text.includes(SERVICE_UNAVAILABLE_MESSAGE),
        ),
      ).toEqual([]);
      expect(lastFailure - killedAt).toBeLessThanOrEqual(SERVES_AGAIN_WITHIN_MS);
      // Sessions survive: every client wrote again afterwards with the session it had (no 401 above).
      for (const client of clients)
        expect(
          client.outcomes.filter((outcome) => outcome.sentAt > lastFailure && DONE.has(outcome.status))
            .length,
        ).toBeGreaterThan(0);

      // Nothing answered is lost: every purchase, upload and run is on the new leader.
      const present = async (table: string, ids: string[]) =>
        (await sql.query(`SELECT count(*)::int AS count FROM ${table} WHERE id = ANY($1::uuid[])`, [ids]))[0]
          .count;
      expect(await present('purchases', purchases)).toBe(purchases.length);
      const uploads = clients.flatMap((client) => client.uploads);
      expect(await present('assets', uploads)).toBe(uploads.length);
      const runs = clients.flatMap((client) => client.runs);
      expect(await present('connector_runs', runs)).toBe(runs.length);
      for (const client of clients.filter((entry) => !entry.unsure)) {
        const grants: Array<{ asset_id: string }> = await sql.query(
          `SELECT asset_id FROM access_grants WHERE user_id = $1`,
          [client.user.id],
        );
        expect(grants.map((grant) => grant.asset_id).sort()).toEqual([...client.held].sort());
      }

      // The purchases' receipts are all mailed: those claimed by the worker
      // on the old leader, and a purchase's made on the new one.
      const lateBuyer = await createUser(sql);
      const lateHttp = new HttpClient(web.baseUrl);
      await lateHttp.login(lateBuyer.email, lateBuyer.password);
      await lateHttp.expect('POST', '/api/access/grant', 200, { json: { assetId: datasets[0] } });
      const unmailed = () =>
        sql.query(`SELECT id FROM notifications WHERE mailed_at IS NULL AND mail_attempts < 5`) as Promise<
          unknown[]
        >;
      await waitFor(
        'every notice to be mailed',
        async () => ((await unmailed()).length === 0 ? true : undefined),
        OUTBOX_TIMEOUT_MS,
      );
      const [{ count: lateNotices }] = await sql.query(
        `SELECT count(*)::int AS count FROM notifications WHERE user_id = $1 AND mailed_at IS NOT NULL`,
        [lateBuyer.id],
      );
      expect(lateNotices).toBeGreaterThan(0);

      // Runs cut by the switch end (queued again and run, or marked failed): none stays running.
      const instances = clients.map((client) => client.instanceId);
      await waitFor(
        'every run to end',
        async () =>
          (
            await sql.query(
              `SELECT 1 FROM connector_runs WHERE instance_id = ANY($1::uuid[]) AND status = 'running'`,
              [instances],
            )
          ).length === 0
            ? true
            : undefined,
        EVENT_TIMEOUT_MS,
      );
      const cut: Array<{ instance_id: string }> = await sql.query(
        `SELECT DISTINCT instance_id FROM connector_runs
          WHERE instance_id = ANY($1::uuid[]) AND (status = 'failed' OR attempts > 1)`,
        [instances],
      );
      console.log(`failover: ${cut.length} instance(s) had a run cut by the switch`);
      // And each instance runs again, to its end.
      for (const { instance_id: instanceId } of cut) {
        const owner = clients.find((client) => client.instanceId === instanceId)!;
        const again = await owner.http.expect<{ run_id: string }>(
          'POST',
          `/api/connectors/instance/${instanceId}/run`,
          202,
          {
            json: {},
          },
        );
        const ended = await waitFor(
          'the run again to end',
          async () => {
            const [row] = await sql.query(`SELECT status FROM connector_runs WHERE id = $1`, [again.run_id]);
            return row.status === 'running' ? undefined : row.status;
          },
          EVENT_TIMEOUT_MS,
        );
        expect(ended).toBe('succeeded');
      }

      // One replica short (the old leader is dead): the app serves and says "degraded"; once the
      // old leader's node is back it rejoins as a replica and the health is "ok" again.
      const health = async () =>
        (await new HttpClient(web.baseUrl).send<{ status: string }>('GET', '/api/health')).body;
      expect(await health()).toMatchObject({ status: 'degraded', database: 'up', replicas_streaming: 1 });
      await cluster.startNode(oldLeader);
      await waitFor(
        'the old leader to rejoin as a replica',
        async () => ((await health()).status === 'ok' ? true : undefined),
        EVENT_TIMEOUT_MS,
      );
    },
    6 * EVENT_TIMEOUT_MS,
  );
});
