import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { FakeUpstream, sendJson, startFakeUpstream } from './support/fake-upstream';
import { connect } from './support/run-through-api';

/** A test read runs a spec through the real engine and writes nothing. */
describe('connector test read', () => {
  let upstream: FakeUpstream;
  let testApp: TestApp;

  beforeAll(async () => {
    upstream = await startFakeUpstream((request, response) => {
      const page = Number(request.url.searchParams.get('page') ?? '1');
      if (request.url.pathname === '/fail') return sendJson(response, { message: 'nope' }, 403);
      // 40 records a page, forever: only the engine's test-read limits end the read.
      return sendJson(response, {
        items: Array.from({ length: 40 }, (_, index) => ({
          id: `${page}${String(index).padStart(2, '0')}1798765432109876`,
          createdAt: '2024-01-01T00:00:00Z',
          day: '2024-01-01',
          score: index + 0.5,
        })),
      });
    });
    testApp = await createTestApp({ CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' });
  });
  afterAll(async () => {
    await testApp.close();
    await upstream.close();
  });

  const spec = (operation: Record<string, unknown> = {}) => ({
    base_url: upstream.origin,
    auth: { type: 'api_key' as const, in: 'query' as const, name: 'api_key', fields: [{ key: 'api_key' }] },
    operations: [
      {
        id: 'items',
        url_path: '/items',
        response_path: 'items',
        pagination: { type: 'page' as const, page_param: 'page', start_page: 1 },
        incremental: { cursor_field: 'createdAt', param: 'since', start: '2024-01-01' },
        ...operation,
      },
    ],
  });

  /**
   * What a test read could have written: runs, instances and states of this user, and data tables
   * that belong to no instance of another user (other suites write tables of their own meanwhile).
   */
  const writtenBy = async (userId: string) => {
    const [owned] = await testApp.dataSource.query(
      `SELECT (SELECT count(*) FROM connector_runs r JOIN connector_instances i ON i.id = r.instance_id
                WHERE i.owner_id = $1)::int AS runs,
              (SELECT count(*) FROM connector_instances WHERE owner_id = $1)::int AS instances,
              (SELECT count(*) FROM connector_instances WHERE owner_id = $1 AND incremental_state IS NOT NULL)::int AS states`,
      [userId],
    );
    const tables: Array<{ name: string }> = await testApp.dataSource.query(
      `SELECT t.tablename AS name FROM pg_tables t
        WHERE t.schemaname = 'data' AND t.tablename NOT LIKE 'ds\\_%'
          AND NOT EXISTS (SELECT 1 FROM connector_instances i
                           WHERE i.owner_id <> $1 AND t.tablename LIKE i.output_table_name || '%')`,
      [userId],
    );
    return { ...owned, tables: tables.map((table) => table.name).sort() };
  };

  it('answers the requests, at most 100 records, their columns and types, and a warning; writes nothing', async () => {
    const { agent, user } = await createLoggedInUser(testApp);
    const before = await writtenBy(user.id);
    expect(before).toMatchObject({ runs: 0, instances: 0, states: 0 });
    upstream.requests.splice(0);
    const response = await agent
      .post('/api/connectors/test-read')
      .set('Origin', TEST_ORIGIN)
      .send({ spec: spec(), auth_data: { api_key: 'secret-key-123' } })
      .expect(200);
    expect(await writtenBy(user.id)).toEqual(before);
    expect(upstream.requests).toHaveLength(3);
    expect(upstream.requests[0].url.searchParams.get('api_key')).toBe('secret-key-123');
    expect(upstream.requests[0].url.searchParams.get('since')).toBe('2024-01-01T00:00:00Z');
    const body = response.body;
    expect(body.records).toHaveLength(100);
    expect(body.pages).toBe(3);
    expect(body.error).toBeNull();
    expect(body.records[0]).toEqual({
      id: '1001798765432109876',
      createdAt: '2024-01-01T00:00:00Z',
      day: '2024-01-01',
      score: 0.5,
    });
    expect(body.columns).toEqual([
      // The ids come as JSON strings: they stay text.
      { name: 'id', field: 'id', type: 'text' },
      { name: 'created_at', field: 'createdAt', type: 'timestamptz' },
      { name: 'day', field: 'day', type: 'date' },
      { name: 'score', field: 'score', type: 'numeric' },
    ]);
    expect(body.warnings).toEqual(['Stopped at the limit of 100 rows per run: more data may exist']);
    expect(body.requests).toHaveLength(3);
    for (const [index, request] of (body.requests as Array<Record<string, unknown>>).entries()) {
      expect(request).toMatchObject({ method: 'GET', status: 200 });
      expect(typeof request.ms).toBe('number');
      expect(request.url).not.toContain('secret-key-123');
      expect(request.url).toContain(`page=${index + 1}`);
    }
    expect(JSON.stringify(body)).not.toContain('secret-key-123');
  });

  it("reads an instance's connector with its stored credentials and settings, writing no run or state", async () => {
    const instance = await connect(testApp, spec({ pagination: undefined }), {
      auth_data: { api_key: 'stored-key-999' },
    });
    const [{ owner_id: ownerId }] = await testApp.dataSource.query(
      `SELECT owner_id FROM connector_instances WHERE id = $1`,
      [instance.id],
    );
    const before = await writtenBy(ownerId);
    const [{ output_table_name: table }] = await testApp.dataSource.query(
      `SELECT output_table_name FROM connector_instances WHERE id = $1`,
      [instance.id],
    );
    upstream.requests.splice(0);
    const response = await instance.agent
      .post('/api/connectors/test-read')
      .set('Origin', TEST_ORIGIN)
      .send({ instance_id: instance.id })
      .expect(200);
    expect(response.body.records).toHaveLength(40);
    expect(upstream.requests).toHaveLength(1);
    expect(upstream.requests[0].url.searchParams.get('api_key')).toBe('stored-key-999');
    expect(await writtenBy(ownerId)).toEqual(before);
    const [{ count }] = await testApp.dataSource.query(`SELECT count(*)::int AS count FROM data."${table}"`);
    expect(count).toBe(0);
  });

  it("another user's instance is not found", async () => {
    const instance = await connect(testApp, spec(), { auth_data: { api_key: 'stored-key-999' } });
    const { agent } = await createLoggedInUser(testApp);
    await agent
      .post('/api/connectors/test-read')
      .set('Origin', TEST_ORIGIN)
      .send({ instance_id: instance.id })
      .expect(404);
  });

  it('an upstream refusal is answered with the requests made and the error, not a failure of the call', async () => {
    const { agent } = await createLoggedInUser(testApp);
    const response = await agent
      .post('/api/connectors/test-read')
      .set('Origin', TEST_ORIGIN)
      .send({
        spec: spec({ url_path: '/fail', incremental: undefined }),
        auth_data: { api_key: 'secret-key-123' },
      })
      .expect(200);
    expect(response.body.records).toEqual([]);
    expect(response.body.requests).toEqual([
      expect.objectContaining({
        method: 'GET',
        status: 403,
        url: expect.stringMatching(/\/fail\?page=1&api_key=\[hidden\]$/),
      }),
    ]);
    expect(response.body.error).toMatch(/HTTP 403/);
  });

  it('refuses a spec with mistakes, each with its path', async () => {
    const { agent } = await createLoggedInUser(testApp);
    const response = await agent
      .post('/api/connectors/test-read')
      .set('Origin', TEST_ORIGIN)
      .send({
        spec: spec({
          records: { key_field: 'date', filter: { field: 'x', op: 'in', value: 3 } },
          incremental: { cursor_field: 'updated_at', lookback: 'one day' },
        }),
        auth_data: { api_key: 'k' },
      })
      .expect(400);
    expect(response.body.errors).toEqual([
      'spec/operations/0/records/key_field: key_field keeps the key a * step went over: the record path needs a *',
      "spec/operations/0/records/filter/value: op 'in' needs an array of values",
      "spec/operations/0/incremental/lookback: 'one day' is not an ISO-8601 duration such as P1D or PT1H",
      'spec/operations/0/incremental/param: the cursor is sent through param, or {{incremental.since}} / {{state.cursor}} in a template',
    ]);
  });

  it('refuses a private address like a run does (the address guard applies)', async () => {
    const guarded = await createTestApp();
    try {
      const { agent } = await createLoggedInUser(guarded);
      const seen = upstream.requests.length;
      const response = await agent
        .post('/api/connectors/test-read')
        .set('Origin', TEST_ORIGIN)
        .send({ spec: spec({ incremental: undefined, pagination: undefined }), auth_data: { api_key: 'k' } })
        .expect(200);
      expect(response.body.error).toMatch(/^Refused to connect to 127\.0\.0\.1/);
      expect(upstream.requests.length).toBe(seen);
      expect(response.body.records).toEqual([]);
    } finally {
      await guarded.close();
    }
  });

  it('needs a spec or an instance, and a login', async () => {
    const { agent } = await createLoggedInUser(testApp);
    const missing = await agent
      .post('/api/connectors/test-read')
      .set('Origin', TEST_ORIGIN)
      .send({})
      .expect(400);
    expect(missing.body.error).toBe('Give a spec, a connector_id or an instance_id to test');
    await testApp
      .agent()
      .post('/api/connectors/test-read')
      .set('Origin', TEST_ORIGIN)
      .send({ spec: spec() })
      .expect(401);
  });
});
