import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { RateLimiterService } from '../../src/common/rate-limit/rate-limiter.service';
import { uploadDataset } from '../factories/asset.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

type Agent = TestAgent<Test>;

/** Every column of pg_sequences but data_type (a regtype) as a constant: the row cast that named any oid. */
const sequenceRow = (oid: string) => `ROW('a'::name, 'b'::name, 'c'::name, ${oid}, 1, 1, 1, 1, false, 1, 1)`;

/**
 * One tenant trying to learn the names of another's private tables through user SQL: a row cast to
 * a catalogue composite type with a regtype field, reg* casts, catalogue functions, and the
 * difference between the answers for a name that exists and one that does not.
 */
describe('POST /api/query: nothing of another tenant can be learnt', () => {
  let testApp: TestApp;
  let attacker: Agent;
  let attackerId: string;
  let secretTable: string;
  let secretName: string;

  beforeAll(async () => {
    testApp = await createTestApp({ QUERY_TIMEOUT_MS: '10000' });
    const first = await createLoggedInUser(testApp);
    const victim = await createLoggedInUser(testApp);
    attacker = first.agent;
    attackerId = first.user.id;
    await uploadDataset(attacker, { title: 'Attacker own', is_public: 'false' });
    const secretId = await uploadDataset(victim.agent, { title: 'Victim secret plans', is_public: 'false' });
    secretTable = `ds_${secretId.replace(/-/g, '').toLowerCase()}`;
    secretName = (await victim.agent.get(`/api/assets/${secretId}`).expect(200)).body.readable_name;
  });
  afterAll(() => testApp.close());
  beforeEach(() => testApp.app.get(RateLimiterService).reset(`query:${attackerId}`));

  const query = (sql: string) => attacker.post('/api/query').set('Origin', TEST_ORIGIN).send({ sql });

  /** The whole answer, status and body, must name neither the victim's table nor its readable name. */
  async function learnsNothing(sql: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await query(sql);
    const seen = JSON.stringify(response.body) + response.text;
    expect(seen).not.toContain(secretTable);
    expect(seen).not.toContain(secretName);
    expect(seen).not.toMatch(/\bds_[0-9a-f]{32}\b/);
    return { status: response.status, body: response.body };
  }

  it('refuses the row cast to pg_sequences that listed every table name by oid', async () => {
    const { status, body } = await learnsNothing(
      `SELECT string_agg(t, ',') FROM (SELECT ((${sequenceRow('o::oid')}::pg_sequences).data_type)::text AS t ` +
        `FROM generate_series(16384, 200000) o) s WHERE t LIKE '%ds%' OR t LIKE '%users%'`,
    );
    expect(status).toBe(400);
    expect(body.error).toBe('a cast to pg_sequences is not allowed in a query');
  });

  it.each([
    `SELECT ((${sequenceRow("'0'")}::pg_sequences).data_type)::text`,
    'SELECT (NULL::pg_class).relname',
    "SELECT 'data.%s'::regclass::text",
    "SELECT CAST('data.%s' AS regclass)::text",
    "SELECT regclass 'data.%s'",
    "SELECT '{data.%s}'::regclass[]",
    "SELECT regclass('data.%s')",
    "SELECT to_regclass('data.%s')",
    "SELECT has_table_privilege('data.%s', 'SELECT')",
    "SELECT pg_relation_size('data.%s')",
    'SELECT NULL::data.%s',
    'SELECT NULL::%s',
    'SELECT * FROM %s',
    'SELECT * FROM "%s"',
    'SELECT * FROM data.%s',
    'EXPLAIN SELECT * FROM %s',
  ])('answers %s the same for the victim’s table and a name that never existed', async (template) => {
    const never = 'ds_00000000000000000000000000000000';
    const victims = await query(template.replace(/%s/g, secretTable));
    expect(victims.text).not.toContain(secretName);
    const unknowns = await query(template.replace(/%s/g, never));
    expect(victims.status).toBe(400);
    expect(unknowns.status).toBe(400);
    // The answer may repeat the name the caller typed, nothing more.
    const neutral = (body: unknown) =>
      JSON.stringify(body).split(secretTable).join('NAME').split(never).join('NAME');
    expect(neutral(victims.body)).toBe(neutral(unknowns.body));
  });
});
