import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

type Agent = TestAgent<Test>;

/** A value of hundreds of megabytes built from a few bytes of query, past the guards on repeat and lpad. */
describe('POST /api/query: format() widths', () => {
  let testApp: TestApp;
  let agent: Agent;

  beforeAll(async () => {
    testApp = await createTestApp({ QUERY_TIMEOUT_MS: '20000' });
    agent = (await createLoggedInUser(testApp)).agent;
  });
  afterAll(() => testApp.close());

  const query = (sql: string) => agent.post('/api/query').set('Origin', TEST_ORIGIN).send({ sql });

  it.each(["SELECT length(format('%200000000s', 'x'))", "SELECT length(format('%*s', 200000000, 'x'))"])(
    'refuses %s before it reaches the database',
    async (sql) => {
      const answer = await query(sql).expect(400);
      expect(answer.body.error).toBe(
        'format() needs a constant format text with field widths of at most 10000',
      );
    },
  );

  it('still formats with ordinary widths', async () => {
    const answer = await query("SELECT format('%-5s|%3s', 'ab', 'c') AS line").expect(200);
    expect(answer.body.rows).toEqual([['ab   |  c']]);
  });
});
