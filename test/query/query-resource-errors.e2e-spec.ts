import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { QueryRoles } from '../../src/query/run/query-roles.service';
import { NEEDED_MORE_DISK, NEEDED_MORE_MEMORY, NESTED_TOO_DEEPLY } from '../../src/query/run/user-sql-errors';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

type Agent = TestAgent<Test>;

/**
 * A statement that asks the server for too much (memory, temporary disk, depth, width) is the
 * user's failure: a 400 in plain words, never a 500 or a 503 ("Database unavailable").
 */
describe('POST /api/query: a statement past the server’s limits', () => {
  let testApp: TestApp;
  let agent: Agent;
  let userId: string;

  beforeAll(async () => {
    testApp = await createTestApp({ QUERY_TIMEOUT_MS: '60000' });
    const caller = await createLoggedInUser(testApp);
    agent = caller.agent;
    userId = caller.user.id;
    await query({ sql: 'SELECT 1' }).expect(200);
  });
  afterAll(() => testApp.close());

  const query = (body: object) => agent.post('/api/query').set('Origin', TEST_ORIGIN).send(body);

  it('answers an aggregate of a hundred million rows as the user’s failure', async () => {
    // The series goes to a temporary file first, which outgrows the role's temp_file_limit.
    const answer = await query({ sql: 'SELECT array_agg(g) FROM generate_series(1, 100000000) g' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe(NEEDED_MORE_DISK);
  }, 90_000);

  it('stops an aggregate of a hundred million small values at the value cap', async () => {
    // Before the aggregate guard this reached PostgreSQL's 1 GB allocation limit ("invalid memory
    // alloc request size", an internal error XX000, answered as needing more memory).
    const answer = await query({
      sql: 'SELECT array_agg(1) FROM generate_series(1, 14000) a, generate_series(1, 10000) b',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/builds a value larger than 16 MB/);
  }, 90_000);

  it('answers a text built past PostgreSQL’s 1 GB limit as needing more memory', async () => {
    // Seventy values of 16 MB, each under the value cap, joined in one call: "out of memory"
    // (program_limit_exceeded), "Cannot enlarge string buffer" in its detail.
    const parts = Array.from({ length: 70 }, () => 'r').join(', ');
    const answer = await query({
      sql: `SELECT length(concat(${parts})) FROM (SELECT repeat('x', 16000000) AS r) AS s`,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe(NEEDED_MORE_MEMORY);
  }, 90_000);

  it('answers a sort past the temporary file limit as needing more disk', async () => {
    // The role's limit as a smaller server would have it; this process set the role up already.
    const role = await testApp.app.get(QueryRoles).userRole(userId);
    await testApp.dataSource.query(`ALTER ROLE "${role}" SET temp_file_limit = '1MB'`);
    try {
      const answer = await query({
        sql: 'SELECT g FROM generate_series(1, 3000000) g ORDER BY g DESC',
        format: 'csv',
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe(NEEDED_MORE_DISK);
    } finally {
      await testApp.dataSource.query(`ALTER ROLE "${role}" SET temp_file_limit = '1GB'`);
    }
  });

  it('answers an expression nested past the stack limit in plain words', async () => {
    const answer = await query({ sql: `SELECT ${'1+'.repeat(40_000)}1` });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe(NESTED_TOO_DEEPLY);
    // Past this process's parser, PostgreSQL's own stack limit (54001) says the same.
    const deep = await query({ sql: `SELECT ${'1+'.repeat(8_000)}1` });
    expect(deep.status).toBe(400);
    expect(deep.body.error).toBe(NESTED_TOO_DEEPLY);
  });

  it('answers too many columns in plain words', async () => {
    const columns = Array.from({ length: 1700 }, (_, index) => `${index} AS c${index}`).join(', ');
    const answer = await query({ sql: `SELECT ${columns}` });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('target lists can have at most 1664 entries');
  });

  it('answers a value past PostgreSQL’s limits in plain words', async () => {
    // program_limit_exceeded (54000): a text longer than 1 GB.
    const answer = await query({ sql: `SELECT length(repeat('abc', 500000000))` });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/too large|at most/);
  });
});
