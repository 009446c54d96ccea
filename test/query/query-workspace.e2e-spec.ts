import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { HISTORY_KEPT_PER_USER } from '../../src/query/history/query-history.service';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser, TestUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

type Agent = TestAgent<Test>;

const CSV = 'city,visitors\nBerlin,10\nParis,20\n';
const NOT_FOUND = 'Saved query not found';

describe('the query workspace: history and saved queries', () => {
  let testApp: TestApp;
  let owner: { user: TestUser; agent: Agent };
  let other: { user: TestUser; agent: Agent };
  let tableName: string;

  beforeAll(async () => {
    testApp = await createTestApp();
    owner = await createLoggedInUser(testApp);
    other = await createLoggedInUser(testApp);
    const datasetId = await uploadDataset(
      owner.agent,
      { title: 'Workspace visits', is_public: 'false' },
      CSV,
    );
    tableName = (await owner.agent.get(`/api/assets/${datasetId}`).expect(200)).body.readable_name;
  });
  afterAll(() => testApp.close());

  const run = (agent: Agent, sql: string) =>
    agent.post('/api/query').set('Origin', TEST_ORIGIN).send({ sql });
  const save = (agent: Agent, body: object) =>
    agent.post('/api/query/saved').set('Origin', TEST_ORIGIN).send(body);

  describe('history', () => {
    it('records each run with its time and row count, or its error, newest first, for its user only', async () => {
      const sql = `SELECT city FROM ${tableName} ORDER BY city`;
      await run(owner.agent, sql).expect(200);
      await run(owner.agent, `SELECT nope FROM ${tableName}`).expect(400);
      const csv = await owner.agent
        .post('/api/query')
        .set('Origin', TEST_ORIGIN)
        .send({ sql: `SELECT * FROM ${tableName}`, format: 'csv' })
        .expect(200);
      expect(csv.text).toContain('Berlin');
      const history = (await owner.agent.get('/api/query/history').expect(200)).body;
      expect(history.slice(0, 3)).toEqual([
        // A CSV answer is PostgreSQL's own COPY output, not counted row by row.
        expect.objectContaining({ sql: `SELECT * FROM ${tableName}`, row_count: null, error: null }),
        expect.objectContaining({
          sql: `SELECT nope FROM ${tableName}`,
          row_count: null,
          error: 'column "nope" does not exist',
        }),
        expect.objectContaining({ sql, row_count: 2, error: null }),
      ]);
      expect(typeof history[0].elapsed_ms).toBe('number');
      expect(Date.parse(history[0].started_at)).toBeGreaterThan(Date.now() - 60_000);
      expect((await other.agent.get('/api/query/history').expect(200)).body).toEqual([]);
    });

    it('records a run before its answer ends, so a history read right after it shows the run', async () => {
      // The history's table locked against writes: the run is recorded only once this lets go.
      const holder = testApp.dataSource.createQueryRunner();
      await holder.connect();
      await holder.startTransaction();
      await holder.query('LOCK TABLE query_history IN SHARE MODE');
      let ended = false;
      const sql = `SELECT visitors FROM ${tableName} ORDER BY visitors`;
      const answer = owner.agent
        .post('/api/query')
        .set('Origin', TEST_ORIGIN)
        .send({ sql, format: 'csv' })
        .then((response) => {
          ended = true;
          return response;
        });
      try {
        const waitingForLock = async () =>
          (
            await testApp.dataSource.query(
              `SELECT 1 FROM pg_locks WHERE relation = 'query_history'::regclass AND NOT granted`,
            )
          ).length > 0;
        for (let tries = 0; !(await waitingForLock()); tries++) {
          if (tries === 200) throw new Error('The run never tried to record itself');
          await new Promise((wait) => setTimeout(wait, 50));
        }
        // Every row has been sent by now; the answer still waits for its history line.
        expect(ended).toBe(false);
      } finally {
        await holder.rollbackTransaction();
        await holder.release();
      }
      expect((await answer).status).toBe(200);
      const [latest] = (await owner.agent.get('/api/query/history').expect(200)).body;
      expect(latest).toMatchObject({ sql, row_count: null, error: null });
    });

    it('records a refused statement with the refusal', async () => {
      await run(owner.agent, 'SELECT pg_sleep(1)').expect(400);
      const [latest] = (await owner.agent.get('/api/query/history').expect(200)).body;
      expect(latest).toMatchObject({
        sql: 'SELECT pg_sleep(1)',
        error: 'function pg_sleep is not allowed in a query',
      });
    });

    it(`keeps only the newest ${HISTORY_KEPT_PER_USER} runs of a user`, async () => {
      const keeper = await createLoggedInUser(testApp);
      // Older runs written straight in: 60 queries a minute is the rate limit of the real thing.
      await testApp.dataSource.query(
        `INSERT INTO query_history (user_id, sql, started_at, elapsed_ms, row_count)
         SELECT $1, 'SELECT ' || n, now() - interval '1 hour' + n * interval '1 second', 1, 1
         FROM generate_series(1, $2) AS n`,
        [keeper.user.id, HISTORY_KEPT_PER_USER],
      );
      await run(keeper.agent, 'SELECT 42').expect(200);
      const history = (await keeper.agent.get('/api/query/history').expect(200)).body;
      expect(history).toHaveLength(HISTORY_KEPT_PER_USER);
      expect(history[0]).toMatchObject({ sql: 'SELECT 42', row_count: 1 });
      expect(history.map((entry: { sql: string }) => entry.sql)).not.toContain('SELECT 1');
      expect(history[HISTORY_KEPT_PER_USER - 1].sql).toBe('SELECT 2');
    });

    it('is cleared by its user only', async () => {
      const clearer = await createLoggedInUser(testApp);
      await run(clearer.agent, 'SELECT 1').expect(200);
      await run(owner.agent, 'SELECT 2').expect(200);
      const cleared = await clearer.agent.delete('/api/query/history').set('Origin', TEST_ORIGIN).expect(200);
      expect(cleared.body).toEqual({ message: 'History cleared' });
      expect((await clearer.agent.get('/api/query/history').expect(200)).body).toEqual([]);
      expect((await owner.agent.get('/api/query/history').expect(200)).body[0].sql).toBe('SELECT 2');
    });
  });

  describe('saved queries', () => {
    it('saves, lists by name, reads, renames, edits and deletes the owner’s queries', async () => {
      const user = await createLoggedInUser(testApp);
      const created = await save(user.agent, { name: '  Visitors by city ', sql: 'SELECT 1' }).expect(201);
      expect(created.body).toMatchObject({ name: 'Visitors by city', sql: 'SELECT 1' });
      await save(user.agent, { name: 'Another', sql: 'SELECT 2' }).expect(201);
      const listed = (await user.agent.get('/api/query/saved').expect(200)).body;
      expect(listed.map((entry: { name: string }) => entry.name)).toEqual(['Another', 'Visitors by city']);
      const id = created.body.id;
      expect((await user.agent.get(`/api/query/saved/${id}`).expect(200)).body.sql).toBe('SELECT 1');
      const changed = await user.agent
        .patch(`/api/query/saved/${id}`)
        .set('Origin', TEST_ORIGIN)
        .send({ sql: 'SELECT 3' })
        .expect(200);
      expect(changed.body).toMatchObject({ name: 'Visitors by city', sql: 'SELECT 3' });
      const renamed = await user.agent
        .patch(`/api/query/saved/${id}`)
        .set('Origin', TEST_ORIGIN)
        .send({ name: 'Renamed' })
        .expect(200);
      expect(renamed.body).toMatchObject({ name: 'Renamed', sql: 'SELECT 3' });
      const deleted = await user.agent
        .delete(`/api/query/saved/${id}`)
        .set('Origin', TEST_ORIGIN)
        .expect(200);
      expect(deleted.body).toEqual({ message: 'Saved query deleted' });
      expect((await user.agent.get(`/api/query/saved/${id}`).expect(404)).body.error).toBe(NOT_FOUND);
      expect((await user.agent.get('/api/query/saved').expect(200)).body).toHaveLength(1);
    });

    it('keeps names unique per owner, whatever the case, and lets another user use the same name', async () => {
      const user = await createLoggedInUser(testApp);
      const first = await save(user.agent, { name: 'Totals', sql: 'SELECT 1' }).expect(201);
      const twice = await save(user.agent, { name: 'TOTALS', sql: 'SELECT 2' }).expect(409);
      expect(twice.body.error).toBe('You already have a saved query named "TOTALS"');
      const second = await save(user.agent, { name: 'Other', sql: 'SELECT 2' }).expect(201);
      const clash = await user.agent
        .patch(`/api/query/saved/${second.body.id}`)
        .set('Origin', TEST_ORIGIN)
        .send({ name: 'totals' })
        .expect(409);
      expect(clash.body.error).toBe('You already have a saved query named "totals"');
      await save(other.agent, { name: 'Totals', sql: 'SELECT 1' }).expect(201);
      expect((await user.agent.get(`/api/query/saved/${first.body.id}`).expect(200)).body.sql).toBe(
        'SELECT 1',
      );
    });

    it('is private: another user can neither see, change nor delete it (404 as if missing)', async () => {
      const { body: mine } = await save(owner.agent, { name: 'Private one', sql: 'SELECT 7' }).expect(201);
      const names = (await other.agent.get('/api/query/saved').expect(200)).body.map(
        (entry: { name: string }) => entry.name,
      );
      expect(names).not.toContain('Private one');
      expect((await other.agent.get(`/api/query/saved/${mine.id}`).expect(404)).body.error).toBe(NOT_FOUND);
      const change = await other.agent
        .patch(`/api/query/saved/${mine.id}`)
        .set('Origin', TEST_ORIGIN)
        .send({ sql: 'SELECT 8' })
        .expect(404);
      expect(change.body.error).toBe(NOT_FOUND);
      const remove = await other.agent
        .delete(`/api/query/saved/${mine.id}`)
        .set('Origin', TEST_ORIGIN)
        .expect(404);
      expect(remove.body.error).toBe(NOT_FOUND);
      expect((await other.agent.get('/api/query/saved/not-a-uuid').expect(404)).body.error).toBe(NOT_FOUND);
      expect((await owner.agent.get(`/api/query/saved/${mine.id}`).expect(200)).body.sql).toBe('SELECT 7');
    });

    it.each([
      ['no name', { sql: 'SELECT 1' }, 'A name is required'],
      ['a blank name', { name: '   ', sql: 'SELECT 1' }, 'A name is required'],
      [
        'a 101-character name',
        { name: 'x'.repeat(101), sql: 'SELECT 1' },
        'A name has at most 100 characters',
      ],
      ['no SQL', { name: 'No SQL' }, 'The SQL is required'],
      ['blank SQL', { name: 'Blank SQL', sql: ' \n ' }, 'The SQL is required'],
      [
        'SQL over 100,000 characters',
        { name: 'Long SQL', sql: `SELECT '${'x'.repeat(100_000)}'` },
        'A query has at most 100000 characters',
      ],
    ])('refuses %s: %s', async (_case, body, message) => {
      const response = await save(owner.agent, body).expect(400);
      expect(response.body.message).toContain(message);
    });

    it('refuses a blank name on rename', async () => {
      const { body } = await save(owner.agent, { name: 'To rename', sql: 'SELECT 1' }).expect(201);
      const response = await owner.agent
        .patch(`/api/query/saved/${body.id}`)
        .set('Origin', TEST_ORIGIN)
        .send({ name: '' })
        .expect(400);
      expect(response.body.message).toContain('A name is required');
    });
  });

  it.each([
    ['GET /api/query/history', (agent: Agent) => agent.get('/api/query/history')],
    [
      'DELETE /api/query/history',
      (agent: Agent) => agent.delete('/api/query/history').set('Origin', TEST_ORIGIN),
    ],
    ['GET /api/query/saved', (agent: Agent) => agent.get('/api/query/saved')],
    ['POST /api/query/saved', (agent: Agent) => save(agent, { name: 'n', sql: 'SELECT 1' })],
    [
      'PATCH /api/query/saved/:id',
      (agent: Agent) =>
        agent
          .patch('/api/query/saved/00000000-0000-4000-8000-000000000000')
          .set('Origin', TEST_ORIGIN)
          .send({}),
    ],
  ])('answers a visitor’s %s with 401', async (_call, send) => {
    const response = await send(testApp.http as unknown as Agent).expect(401);
    expect(response.body.error).toBe('Please log in to continue');
  });
});
