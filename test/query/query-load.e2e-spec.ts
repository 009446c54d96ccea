import { Client } from 'pg';
import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { QueryRoles } from '../../src/query/run/query-roles.service';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser, TestUser } from '../factories/user.factory';
import { runMigrations } from '../../src/database/migrate';
import { createTestDatabase, TestDatabase } from '../setup/test-database';
import { createTestApp, createTestAppOn, TEST_ORIGIN, TestApp, testDatabaseUrl } from '../support/test-app';

type Agent = TestAgent<Test>;
type Caller = { user: TestUser; agent: Agent };

/** A statement that runs until its limit stops it. */
const LONG = 'SELECT count(*) FROM (SELECT generate_series(1, 100000000000)) s';

const query = (agent: Agent, body: object) => agent.post('/api/query').set('Origin', TEST_ORIGIN).send(body);

/** Sends now (a supertest request starts when awaited) and keeps the answer for later. */
const sent = (agent: Agent, body: object) => query(agent, body).then((response) => response);

async function waitFor(what: string, condition: () => Promise<boolean>, boundMs = 15_000): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Waited ${boundMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Many users' queries at once: none waits on another user's role changes, and the statements
 * running on the database server at once are capped over all app processes, not per process.
 */
describe('POST /api/query under load', () => {
  describe('role grants', () => {
    let testApp: TestApp;
    let roles: QueryRoles;
    let owner: Caller;
    let shared: string;
    let sharedId: string;

    beforeAll(async () => {
      testApp = await createTestApp({
        QUERY_TIMEOUT_MS: '5000',
        QUERY_MAX_CONCURRENT: '8',
        QUERY_QUEUE_MS: '20000',
      });
      roles = testApp.app.get(QueryRoles);
      owner = await createLoggedInUser(testApp);
      sharedId = await uploadDataset(owner.agent, { title: 'Load shared' });
      shared = (await owner.agent.get(`/api/assets/${sharedId}`).expect(200)).body.readable_name;
    });
    afterAll(() => testApp.close());

    /** A user holding the shared (free, public) dataset. */
    const holder = async (): Promise<Caller> => {
      const caller = await createLoggedInUser(testApp);
      await caller.agent
        .post('/api/access/grant')
        .set('Origin', TEST_ORIGIN)
        .send({ assetId: sharedId })
        .expect(200);
      return caller;
    };

    it('never wait on a lock of every query, nor on another user’s role changes', async () => {
      const caller = await holder();
      await query(caller.agent, { sql: 'SELECT 1' }).expect(200);
      const other = await roles.userRole(owner.user.id);
      const blocker = new Client({ connectionString: testDatabaseUrl() });
      await blocker.connect();
      try {
        // The lock every query took before, and the lock of another user's role changes.
        await blocker.query(`SELECT pg_advisory_lock(hashtext('query roles'))`);
        await blocker.query(`SELECT pg_advisory_lock(hashtext('query role of a user'), hashtext($1))`, [
          other,
        ]);
        const started = Date.now();
        await query(caller.agent, { sql: 'SELECT 2' }).expect(200);
        // Access that changed since (a public dataset read for the first time) is granted without them too.
        await query(caller.agent, { sql: `SELECT count(*) FROM ${shared}` }).expect(200);
        expect(Date.now() - started).toBeLessThan(4_000);
      } finally {
        await blocker.end();
      }
    });

    it('a role sync that waits its turn longer than a request’s statement limit still answers', async () => {
      const caller = await holder();
      const blocker = new Client({ connectionString: testDatabaseUrl() });
      await blocker.connect();
      try {
        // The turn of this user's role changes, held past the pool's own answer limit (5 s + 1 s).
        await blocker.query(`SELECT pg_advisory_lock(hashtext('query role of a user'), hashtext($1))`, [
          await roles.userRole(caller.user.id),
        ]);
        const answer = sent(caller.agent, { sql: 'SELECT 7 AS n' });
        await new Promise((resolve) => setTimeout(resolve, 8_000));
        await blocker.query('SELECT pg_advisory_unlock_all()');
        const answered = await answer;
        expect(answered.status).toBe(200);
        expect(answered.body.rows).toEqual([[7]]);
      } finally {
        await blocker.end();
      }
    }, 60_000);

    it('answer twenty users’ queries at once, round after round, without a server error', async () => {
      const callers = await Promise.all(Array.from({ length: 20 }, () => holder()));
      const statuses: number[] = [];
      // Each user keeps two queries going for four rounds; after the first, every user's holdings
      // change, so role changes run among the queries. A count of rounds, not of seconds: a busy
      // machine answers fewer in a given time, and that is no failure.
      const ROUNDS = 4;
      const extraId = await uploadDataset(owner.agent, { title: `Load extra ${Date.now()}` });
      const extra = (await owner.agent.get(`/api/assets/${extraId}`).expect(200)).body.readable_name;
      const keepQuerying = async (caller: Caller, lane: number) => {
        for (let round = 0; round < ROUNDS; round += 1) {
          if (lane === 0 && round === 1)
            await caller.agent
              .post('/api/access/grant')
              .set('Origin', TEST_ORIGIN)
              .send({ assetId: extraId })
              .expect(200);
          const table = lane === 0 && round > 1 ? extra : shared;
          statuses.push((await query(caller.agent, { sql: `SELECT count(*) FROM ${table}` })).status);
        }
      };
      await Promise.all(callers.flatMap((caller) => [keepQuerying(caller, 0), keepQuerying(caller, 1)]));
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
      expect(statuses).toHaveLength(20 * 2 * ROUNDS);
    }, 120_000);

    it('still follow access at once: a deleted dataset leaves the next query and the role', async () => {
      const caller = await holder();
      const assetId = await uploadDataset(owner.agent, { title: `Load gone ${Date.now()}` });
      const name = (await owner.agent.get(`/api/assets/${assetId}`).expect(200)).body.readable_name;
      await caller.agent.post('/api/access/grant').set('Origin', TEST_ORIGIN).send({ assetId }).expect(200);
      await query(caller.agent, { sql: `SELECT count(*) FROM ${name}` }).expect(200);
      // In step now: the next query takes the path without a lock, and still reads.
      await query(caller.agent, { sql: `SELECT count(*) FROM ${name}` }).expect(200);
      await owner.agent.delete(`/api/assets/${assetId}`).set('Origin', TEST_ORIGIN).expect(200);
      const gone = await query(caller.agent, { sql: `SELECT count(*) FROM ${name}` }).expect(400);
      expect(gone.body.error).toBe(`relation "${name}" does not exist`);
      const [{ members }] = await testApp.dataSource.query(
        `SELECT count(*)::int AS members FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.member WHERE r.rolname = $1`,
        [await roles.userRole(caller.user.id)],
      );
      expect(members).toBe(0);
    });
  });

  describe('statements running at once', () => {
    let database: TestDatabase;
    let first: TestApp;
    let second: TestApp;

    beforeAll(async () => {
      // A database of its own: the places are the database server's, shared with other suites' apps.
      database = await createTestDatabase('dm_query_slots');
      await runMigrations(database.url);
      // Two app processes on one database, each allowing two user statements on the server.
      const settings = { QUERY_TIMEOUT_MS: '4000', QUERY_MAX_CONCURRENT: '2' };
      first = await createTestAppOn(database.url, { ...settings, QUERY_QUEUE_MS: '300' });
      second = await createTestAppOn(database.url, { ...settings, QUERY_QUEUE_MS: '30000' });
    });
    afterAll(async () => {
      await first.close();
      await second.close();
      await database.drop();
    });

    const activeOf = async (testApp: TestApp, users: TestUser[]): Promise<number> => {
      const roles = testApp.app.get(QueryRoles);
      const names = await Promise.all(users.map((user) => roles.userRole(user.id)));
      const [{ active }] = await testApp.dataSource.query(
        `SELECT count(*)::int AS active FROM pg_stat_activity
          WHERE usename = ANY($1) AND state = 'active' AND query LIKE '%generate_series(1, 100000000000)%'`,
        [names],
      );
      return active;
    };

    it('are capped over all processes: one more waits briefly, then is refused with 429, or runs when a place frees', async () => {
      const [one, two, three, four] = await Promise.all([1, 2, 3, 4].map(() => createLoggedInUser(first)));
      const running = [sent(one.agent, { sql: LONG }), sent(two.agent, { sql: LONG })];
      await waitFor('two long statements', async () => (await activeOf(first, [one.user, two.user])) === 2);
      // Another user, in the same process: waits up to QUERY_QUEUE_MS, then 429.
      const refused = await query(three.agent, { sql: 'SELECT 1' }).expect(429);
      expect(refused.body.error).toBe(
        'The server is running as many queries as it can at the moment: please try again in a few seconds',
      );
      expect(refused.headers['retry-after']).toBe('2');
      // Another user, through another process: queued until a place frees, then answered.
      const fourth = await loginOn(second, four.user);
      const queued = sent(fourth, { sql: 'SELECT 42 AS answer' });
      const ended = await Promise.all(running);
      for (const response of ended) expect(response.status).toBe(400);
      const answered = await queued;
      expect(answered.status).toBe(200);
      expect(answered.body.rows).toEqual([[42]]);
    });

    it('first queries of many users in a process that has not readied their roles yet: no server error', async () => {
      const users = await Promise.all([1, 2, 3, 4, 5, 6].map(() => createLoggedInUser(first)));
      // Their roles exist (made through the first process), as after a restart of the app.
      for (const user of users) await query(user.agent, { sql: 'SELECT 1' }).expect(200);
      const agents = await Promise.all(users.map(({ user }) => loginOn(second, user)));
      const answers = await Promise.all(
        agents.flatMap((agent) => [sent(agent, { sql: 'SELECT 1' }), sent(agent, { sql: 'SELECT 2' })]),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(200));
    }, 60_000);

    it('a statement that waited for a place longer than its time limit still answers whole', async () => {
      const five = await createLoggedInUser(second);
      const blocker = new Client({ connectionString: database.url });
      await blocker.connect();
      try {
        // Both places taken for longer than the limit (4 s) and the answer's grace (3 s) together.
        await blocker.query(
          `SELECT pg_advisory_lock(hashtext('user query'), 1), pg_advisory_lock(hashtext('user query'), 2)`,
        );
        const queued = sent(five.agent, { sql: 'SELECT 42 AS answer', format: 'ndjson' });
        await new Promise((resolve) => setTimeout(resolve, 8_000));
        await blocker.query('SELECT pg_advisory_unlock_all()');
        const answered = await queued;
        expect(answered.status).toBe(200);
        expect(answered.text).toBe('{"answer":42}\n');
      } finally {
        await blocker.end();
      }
    }, 60_000);
  });
});

async function loginOn(testApp: TestApp, user: TestUser): Promise<Agent> {
  const agent = testApp.agent();
  await agent
    .post('/api/users/login')
    .set('Origin', TEST_ORIGIN)
    .send({ email: user.email, password: user.password })
    .expect(200);
  return agent as unknown as Agent;
}
