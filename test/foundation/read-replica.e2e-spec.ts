import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { runMigrations } from '../../src/database/migrate';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { ReplicatedPostgres } from '../support/replicated-postgres';
import { createTestAppOn, TEST_ORIGIN, TestApp } from '../support/test-app';

const DATABASE = 'dm_read_replica';
/** Longest a poll waits for the replica to catch up or the routing to notice it is gone. */
const CATCH_UP_BOUND_MS = 60_000;

async function eventually<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + CATCH_UP_BOUND_MS;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen in time`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('database: reads from a streaming replica', () => {
  let cluster: ReplicatedPostgres;
  let replicaControl: Client;
  // Lag bound far beyond the suite: a replica whose replay the test pauses still counts as fresh.
  let patient: TestApp;

  beforeAll(async () => {
    cluster = await ReplicatedPostgres.start();
    const admin = new Client({ connectionString: cluster.primaryUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${DATABASE}`);
    await admin.end();
    await runMigrations(cluster.urlOf(cluster.primaryPort, DATABASE));
    replicaControl = new Client({ connectionString: cluster.urlOf(cluster.replicaPort, DATABASE) });
    await eventually('the database reaching the replica', async () =>
      replicaControl.connect().then(
        () => true,
        () => (
          (replicaControl = new Client({ connectionString: cluster.urlOf(cluster.replicaPort, DATABASE) })),
          undefined
        ),
      ),
    );
    patient = await createTestAppOn(cluster.urlOf(cluster.primaryPort, DATABASE), {
      DATABASE_READ_URL: cluster.urlOf(cluster.replicaPort, DATABASE),
      DATABASE_READ_MAX_LAG_MS: '600000',
    });
  });
  afterAll(async () => {
    await replicaControl?.query('SELECT pg_wal_replay_resume()').catch(() => undefined);
    await replicaControl?.end().catch(() => undefined);
    await patient?.close();
    await cluster?.destroy();
  });

  /** Waits until the replica has replayed everything the primary has written so far. */
  async function replayedUpToPrimary(): Promise<void> {
    const [{ lsn }] = await patient.dataSource.query(`SELECT pg_current_wal_lsn()::text AS lsn`);
    await eventually('the replica replaying up to the primary', async () => {
      const { rows } = await replicaControl.query(
        `SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS caught_up`,
        [lsn],
      );
      return rows[0].caught_up ? true : undefined;
    });
  }

  async function titleSeenBy(agent: ReturnType<TestApp['agent']>, id: string): Promise<string> {
    return (await agent.get(`/api/assets/${id}`).expect(200)).body.title;
  }

  it('the catalogue comes from the replica, while the writer sees their own change at once', async () => {
    const { agent } = await createLoggedInUser(patient);
    const id = await uploadDataset(agent, { title: 'Harbour tides' });
    const visitor = patient.agent();
    await eventually('the upload reaching the replica', async () =>
      (await visitor.get(`/api/assets/${id}`)).status === 200 ? true : undefined,
    );
    // The visitor may have read something on the primary (their read position): the replica must
    // hold all of it before it stops, or serving them from it would take them back in time.
    await replayedUpToPrimary();

    await replicaControl.query('SELECT pg_wal_replay_pause()');
    const updated = await agent
      .patch(`/api/assets/${id}`)
      .set('Origin', TEST_ORIGIN)
      .send({ title: 'Harbour tides 2026' })
      .expect(200);
    // The write's own answer, the writer's next reads: the primary.
    expect(updated.body.title).toBe('Harbour tides 2026');
    expect(await titleSeenBy(agent, id)).toBe('Harbour tides 2026');
    const listed = await agent.get('/api/assets?search=Harbour').expect(200);
    expect(listed.body.map((item: { title: string }) => item.title)).toEqual(['Harbour tides 2026']);
    // Everyone else reads the catalogue from the replica, whose replay is paused before the change:
    // a new visitor, who has read nothing on the primary (the first one may have, while waiting
    // for the upload, and their read position rightly sends them to the primary until the replica
    // is known to hold it).
    const stranger = patient.agent();
    const seenByVisitor = await stranger.get('/api/assets?search=Harbour').expect(200);
    expect(seenByVisitor.body.map((item: { title: string }) => item.title)).toEqual(['Harbour tides']);

    await replicaControl.query('SELECT pg_wal_replay_resume()');
    await eventually('the change reaching visitors', async () => {
      const seen = await visitor.get('/api/assets?search=Harbour').expect(200);
      return seen.body[0]?.title === 'Harbour tides 2026' ? true : undefined;
    });
  });

  it('with the replica stopped, reads go to the primary without an error, and the log says so once', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn');
    const strict = await createTestAppOn(cluster.urlOf(cluster.primaryPort, DATABASE), {
      DATABASE_READ_URL: cluster.urlOf(cluster.replicaPort, DATABASE),
      DATABASE_READ_MAX_LAG_MS: '100',
    });
    try {
      const { agent } = await createLoggedInUser(strict);
      const visitor = strict.agent();
      await replicaControl.end();
      await cluster.stopReplica();
      const id = await uploadDataset(agent, { title: 'Glacier melt' });
      const statuses = new Set<number>();
      await eventually('reads moving to the primary', async () => {
        const response = await visitor.get(`/api/assets/${id}`);
        statuses.add(response.status);
        return response.status === 200 ? true : undefined;
      });
      for (let index = 0; index < 10; index++) statuses.add((await visitor.get('/api/assets')).status);
      // Before the routing noticed, the new dataset was not on the replica yet (404); never a 5xx.
      expect([...statuses].every((status) => status === 200 || status === 404)).toBe(true);
      const switches = warn.mock.calls.filter(([message]) => String(message).startsWith('Read replica down'));
      expect(switches).toHaveLength(1);
    } finally {
      warn.mockRestore();
      await strict.close();
      await cluster.startReplica();
    }
  });

  it('a replica that stops under load sends each read begun after it to the primary at once: no 5xx', async () => {
    // A lag bound of ten minutes: only the refused connection itself can move the reads.
    const app = await createTestAppOn(cluster.urlOf(cluster.primaryPort, DATABASE), {
      DATABASE_READ_URL: cluster.urlOf(cluster.replicaPort, DATABASE),
      DATABASE_READ_MAX_LAG_MS: '600000',
    });
    try {
      const { agent } = await createLoggedInUser(app);
      await uploadDataset(agent, { title: 'Under load' });
      // Each read with whether it began after the replica had stopped.
      const reads: Array<{ after: boolean; status: number }> = [];
      const stopped: { at?: number } = {};
      const client = async () => {
        const visitor = app.agent();
        while (stopped.at === undefined || Date.now() - stopped.at < 3_000) {
          const after = stopped.at !== undefined;
          reads.push({ after, status: (await visitor.get('/api/assets')).status });
        }
      };
      const clients = Array.from({ length: 8 }, client);
      await eventually('reads under way', async () => (reads.length > 40 ? true : undefined));
      await cluster.stopReplica();
      stopped.at = Date.now();
      await Promise.all(clients);
      const after = reads.filter((read) => read.after);
      expect(after.filter((read) => read.status >= 500)).toEqual([]);
      expect(after.length).toBeGreaterThan(20);
    } finally {
      await app.close();
      await cluster.startReplica();
    }
  });
});
