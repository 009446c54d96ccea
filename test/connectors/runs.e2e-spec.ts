import type { SchemaField } from '../../src/connectors/entities/connector.entity';
import { createConnector, simpleSpec, waitForRuns } from '../factories/connector.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { FakeUpstream, sendJson, startFakeUpstream } from './support/fake-upstream';

type Agent = ReturnType<TestApp['agent']>;

describe('connectors: runs through the API (private networks allowed for the local fake API)', () => {
  let testApp: TestApp;
  let upstream: FakeUpstream;
  /** What /items answers next; tests change it. */
  let items: unknown = [];
  let itemsStatus = 200;
  let releaseSlow: (() => void) | undefined;

  beforeAll(async () => {
    upstream = await startFakeUpstream(async (request, response) => {
      if (request.url.pathname === '/slow') {
        await new Promise<void>((resolve) => (releaseSlow = resolve));
        return sendJson(response, [{ slow: true }]);
      }
      return sendJson(response, items, itemsStatus);
    });
    testApp = await createTestApp({ CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' });
  });
  afterAll(async () => {
    releaseSlow?.();
    await testApp.close();
    await upstream.close();
  });
  beforeEach(() => {
    items = [];
    itemsStatus = 200;
  });

  async function connectedInstance(
    path = '/items',
    settings: Record<string, unknown> = {},
    fields: SchemaField[] = [],
  ) {
    const { agent } = await createLoggedInUser(testApp);
    const connector = await createConnector(testApp.dataSource, {
      spec: { ...simpleSpec(upstream.origin, { url_path: path }), fields },
    });
    const { id } = (
      await agent
        .post('/api/connectors/activate')
        .set('Origin', TEST_ORIGIN)
        .send({ connector_id: connector.id, settings })
        .expect(201)
    ).body;
    const [row] = await testApp.dataSource.query(
      `SELECT output_table_name FROM connector_instances WHERE id = $1`,
      [id],
    );
    return { agent, id: id as string, table: `data."${row.output_table_name}"` };
  }

  /** Waits until the fake API holds a /slow request, then lets it answer. */
  async function releaseSlowRequest(): Promise<void> {
    // However long a starved machine takes to send it: the test's own timeout bounds the wait.
    while (!releaseSlow) await new Promise((resolve) => setTimeout(resolve, 20));
    const release = releaseSlow!;
    releaseSlow = undefined;
    release();
  }

  const refresh = (agent: Agent, id: string) =>
    agent.post(`/api/connectors/run/${id}`).set('Origin', TEST_ORIGIN);
  const rows = (table: string, order = 'id') =>
    testApp.dataSource.query(`SELECT * FROM ${table} ORDER BY ${order}`);

  it('POST connectors/run/{id} runs synchronously and answers the row count; rows carry run id and fetch time', async () => {
    const { agent, id, table } = await connectedInstance();
    items = [
      { id: 1, name: 'Ann', score: 9.5, active: true, tags: ['a'], address: { city: 'Berlin' } },
      { id: 2, name: 'Bob', extra: 'new column' },
    ];
    const response = await refresh(agent, id).expect(200);
    expect(response.body).toMatchObject({ rowCount: 2 });
    const stored = await rows(table);
    expect(stored).toEqual([
      expect.objectContaining({
        id: '1',
        name: 'Ann',
        score: '9.5',
        active: true,
        tags: ['a'],
        address: { city: 'Berlin' },
        extra: null,
      }),
      expect.objectContaining({ id: '2', name: 'Bob', extra: 'new column' }),
    ]);
    expect(stored[0]._run_id).toBe(response.body.run_id);
    expect(stored[0]._fetched_at).toBeInstanceOf(Date);
    const [run] = (await agent.get(`/api/connectors/instance/${id}/runs`).expect(200)).body;
    expect(run).toMatchObject({
      id: response.body.run_id,
      trigger: 'manual',
      status: 'succeeded',
      row_count: 2,
      pages_fetched: 1,
      error: null,
    });
    expect(run.finished_at).not.toBeNull();
  });

  it('appends without override and replaces with override', async () => {
    const { agent, id, table } = await connectedInstance();
    items = [{ id: 1 }];
    await refresh(agent, id).expect(200);
    items = [{ id: 2 }];
    await refresh(agent, id).expect(200);
    expect((await rows(table)).map((row: { id: string }) => row.id)).toEqual(['1', '2']);

    items = [{ id: 3, fresh: true }];
    const started = await agent
      .post(`/api/connectors/instance/${id}/run`)
      .set('Origin', TEST_ORIGIN)
      .send({ settings: { override: true } })
      .expect(202);
    expect(started.body).toEqual({ run_id: expect.any(String), status: 'running' });
    await waitForRuns(agent, id);
    expect((await rows(table)).map((row: { id: string; fresh: boolean }) => [row.id, row.fresh])).toEqual([
      ['3', true],
    ]);
  });

  it('uses the override setting stored on the instance for the Refresh call', async () => {
    const { agent, id, table } = await connectedInstance('/items', { override: true });
    items = [{ id: 1 }];
    await refresh(agent, id).expect(200);
    items = [{ id: 2 }];
    await refresh(agent, id).expect(200);
    expect((await rows(table)).map((row: { id: string }) => row.id)).toEqual(['2']);
  });

  it('a failed override run keeps the old rows and records a clear error', async () => {
    const { agent, id, table } = await connectedInstance();
    items = [{ id: 1 }, { id: 2 }];
    await refresh(agent, id).expect(200);
    itemsStatus = 404;
    items = { message: 'gone' };
    await agent
      .post(`/api/connectors/instance/${id}/run`)
      .set('Origin', TEST_ORIGIN)
      .send({ override: true })
      .expect(202);
    const [failed] = await waitForRuns(agent, id);
    expect(failed).toMatchObject({ status: 'failed', row_count: 0 });
    expect(failed.error).toMatch(/^HTTP 404 Not Found from 127\.0\.0\.1:\d+\/items: \{"message":"gone"\}$/);
    expect((await rows(table)).map((row: { id: string }) => row.id)).toEqual(['1', '2']);
  });

  it('answers the Refresh failure with the run error', async () => {
    const { agent, id } = await connectedInstance();
    itemsStatus = 400;
    items = { error: 'bad city' };
    const response = await refresh(agent, id).expect(502);
    expect(response.body.error).toMatch(/^Run failed: HTTP 400 Bad Request from 127\.0\.0\.1:\d+\/items/);
  });

  it('does not start a second run while one is in progress, and lists runs newest first', async () => {
    const { agent, id } = await connectedInstance('/slow');
    const first = await agent
      .post(`/api/connectors/instance/${id}/run`)
      .set('Origin', TEST_ORIGIN)
      .send({})
      .expect(202);
    const second = await agent
      .post(`/api/connectors/instance/${id}/run`)
      .set('Origin', TEST_ORIGIN)
      .send({})
      .expect(409);
    expect(second.body.error).toBe('A run is already in progress for this connector');
    await refresh(agent, id).expect(409);
    await releaseSlowRequest();
    await waitForRuns(agent, id);

    const third = await agent
      .post(`/api/connectors/instance/${id}/run`)
      .set('Origin', TEST_ORIGIN)
      .send({})
      .expect(202);
    await releaseSlowRequest();
    const runs = await waitForRuns(agent, id);
    expect(runs.map((run) => [run.id, run.status, run.row_count])).toEqual([
      [third.body.run_id, 'succeeded', 1],
      [first.body.run_id, 'succeeded', 1],
    ]);
  });

  it('runs with the settings given to the run call without saving them', async () => {
    const { agent, id } = await connectedInstance('/items/{{region}}', { region: 'eu' }, [
      { key: 'region', label: 'Region', type: 'text' },
    ]);
    items = [{ id: 1 }];
    upstream.requests.splice(0);
    await agent
      .post(`/api/connectors/instance/${id}/run`)
      .set('Origin', TEST_ORIGIN)
      .send({ settings: { region: 'us' } })
      .expect(202);
    await waitForRuns(agent, id);
    expect(upstream.requests.at(-1)!.url.pathname).toBe('/items/us');
    const [mine] = (await agent.get('/api/connectors/my')).body;
    expect(mine.settings).toEqual({ region: 'eu' });
    expect(mine.last_run).toMatchObject({ status: 'succeeded', row_count: 1 });
  });

  it('refuses run-only settings that leave a required field empty, and starts no run', async () => {
    const { agent } = await createLoggedInUser(testApp);
    const connector = await createConnector(testApp.dataSource, {
      spec: {
        ...simpleSpec(upstream.origin),
        fields: [{ key: 'region', label: 'Region', type: 'text', required: true }],
      },
    });
    const { id } = (
      await agent
        .post('/api/connectors/activate')
        .set('Origin', TEST_ORIGIN)
        .send({ connector_id: connector.id, settings: { region: 'eu' } })
        .expect(201)
    ).body;
    const refused = await agent
      .post(`/api/connectors/instance/${id}/run`)
      .set('Origin', TEST_ORIGIN)
      .send({ settings: { region: '' } })
      .expect(400);
    expect(refused.body.error).toBe('Region is required');
    const [{ count }] = await testApp.dataSource.query(
      `SELECT count(*)::int AS count FROM connector_runs WHERE instance_id = $1`,
      [id],
    );
    expect(count).toBe(0);
  });

  it('shows the last run on GET connectors/my', async () => {
    const { agent, id } = await connectedInstance();
    items = [{ a: 1 }, { a: 2 }, { a: 3 }];
    await refresh(agent, id).expect(200);
    const [mine] = (await agent.get('/api/connectors/my').expect(200)).body;
    expect(mine).toMatchObject({ id, last_run: { status: 'succeeded', row_count: 3, trigger: 'manual' } });
  });
});

describe('connectors: runs with private networks refused (default)', () => {
  let testApp: TestApp;
  let upstream: FakeUpstream;

  beforeAll(async () => {
    upstream = await startFakeUpstream((_request, response) => sendJson(response, [{ leaked: true }]));
    testApp = await createTestApp();
  });
  afterAll(async () => {
    await testApp.close();
    await upstream.close();
  });

  it('records the refusal on the run and reaches nothing', async () => {
    const { agent } = await createLoggedInUser(testApp);
    const port = new URL(upstream.origin).port;
    const connector = await createConnector(testApp.dataSource, {
      spec: simpleSpec(`http://localhost:${port}`),
    });
    const { id } = (
      await agent
        .post('/api/connectors/activate')
        .set('Origin', TEST_ORIGIN)
        .send({ connector_id: connector.id })
        .expect(201)
    ).body;
    const response = await agent.post(`/api/connectors/run/${id}`).set('Origin', TEST_ORIGIN).expect(502);
    expect(response.body.error).toMatch(/^Run failed: Refused to connect to localhost/);
    expect(upstream.requests).toHaveLength(0);
  });
});
