import { randomUUID } from 'node:crypto';
import { ConnectorRunsService } from '../../src/connectors/runs/connector-runs.service';
import { stagingTableName } from '../../src/database/data-tables/data-table-names';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { createConnector, waitForRuns } from '../factories/connector.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { setApiKey } from '../stream/stream.factory';
import { FakeUpstream, sendJson, startFakeUpstream } from './support/fake-upstream';
import { connect, ConnectedInstance } from './support/run-through-api';

const REPOS = ['api', 'web', 'cli'];
const ISSUES: Record<string, number> = { api: 3, web: 0, cli: 2 };
const MEMBERS = 4;

interface TableView {
  operation_id: string | null;
  output_table_name: string;
  readable_name: string;
  stream_reference: string;
}

/** One instance runs several operations of a spec, each into its own table. */
describe('connector instances running several operations', () => {
  let upstream: FakeUpstream;
  let testApp: TestApp;

  beforeAll(async () => {
    upstream = await startFakeUpstream((request, response) => {
      const path = request.url.pathname;
      if (path === '/orgs/acme/repos')
        return sendJson(
          response,
          REPOS.map((name) => ({ name })),
        );
      if (path === '/orgs/acme/members')
        return sendJson(
          response,
          Array.from({ length: MEMBERS }, (_, index) => ({ login: `m${index}` })),
        );
      const match = /^\/repos\/acme\/([^/]+)\/issues$/.exec(path);
      if (match)
        return sendJson(
          response,
          Array.from({ length: ISSUES[match[1]] ?? 0 }, (_, index) => ({
            number: index + 1,
            repo: match[1],
          })),
        );
      return sendJson(response, { message: 'Not Found' }, 404);
    });
    testApp = await createTestApp({ CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' });
  });
  afterAll(async () => {
    await testApp.close();
    await upstream.close();
  });

  const spec = () => ({
    base_url: upstream.origin,
    operations: [
      { id: 'repos', url_path: '/orgs/{{org}}/repos' },
      {
        id: 'issues',
        url_path: '/repos/{{org}}/{{repo}}/issues',
        parent: { operation: 'repos', field: 'name', as: 'repo' },
      },
      { id: 'members', url_path: '/orgs/{{org}}/members' },
      { id: 'broken', url_path: '/orgs/{{org}}/nothing-here' },
    ],
    fields: [{ key: 'org', type: 'text' as const, required: true }],
  });

  async function instanceView(instance: ConnectedInstance) {
    const mine = (await instance.agent.get('/api/connectors/my').expect(200)).body as Array<{
      id: string;
      operation_ids: string[];
      output_table_name: string;
      readable_name: string;
      tables: TableView[];
    }>;
    return mine.find((view) => view.id === instance.id)!;
  }

  async function countOf(tableName: string): Promise<number> {
    const [{ count }] = await testApp.dataSource.query(
      `SELECT count(*)::int AS count FROM data."${tableName}"`,
    );
    return count as number;
  }

  async function tableExists(tableName: string): Promise<boolean> {
    const [{ found }] = await testApp.dataSource.query(`SELECT to_regclass($1) IS NOT NULL AS found`, [
      `data."${tableName}"`,
    ]);
    return found as boolean;
  }

  async function runOnce(instance: ConnectedInstance) {
    await instance.agent
      .post(`/api/connectors/instance/${instance.id}/run`)
      .set('Origin', TEST_ORIGIN)
      .send({ override: true })
      .expect(202);
    const [run] = await waitForRuns(instance.agent, instance.id, 20_000);
    return run as Record<string, unknown> & { operations: Array<Record<string, unknown>> };
  }

  it('runs each chosen operation into its own table, a child still iterating its parent, with the outcome of each', async () => {
    const instance = await connect(testApp, spec(), {
      settings: { org: 'acme' },
      operation_ids: ['repos', 'issues'],
    });
    const view = await instanceView(instance);
    expect(view.operation_ids).toEqual(['repos', 'issues']);
    expect(view.tables.map((table) => table.operation_id)).toEqual(['repos', 'issues']);
    expect(view.tables[0]).toMatchObject({
      output_table_name: view.output_table_name,
      stream_reference: `instance-${instance.id}`,
    });
    expect(view.tables[1].output_table_name).not.toBe(view.output_table_name);
    expect(view.tables[1].stream_reference).toMatch(/^table-[0-9a-f-]{36}$/);
    // Each table its own readable name: the instance's own is the instance's, a further one adds its operation.
    expect(view.tables[0].readable_name).toBe(view.readable_name);
    expect(view.tables[1].readable_name).toMatch(/^[a-z][a-z0-9_]*_issues_[0-9a-f]{4}$/);

    upstream.requests.splice(0);
    const run = await runOnce(instance);
    expect(run).toMatchObject({ status: 'succeeded', row_count: 8, pages_fetched: 5, error: null });
    expect(run.operations).toEqual([
      {
        operation_id: 'repos',
        output_table_name: view.tables[0].output_table_name,
        status: 'succeeded',
        row_count: 3,
        pages_fetched: 1,
        error: null,
        warning: null,
      },
      {
        operation_id: 'issues',
        output_table_name: view.tables[1].output_table_name,
        status: 'succeeded',
        row_count: 5,
        pages_fetched: 4,
        error: null,
        warning: null,
      },
    ]);
    expect(upstream.requests.map((request) => request.url.pathname)).toEqual([
      '/orgs/acme/repos',
      '/orgs/acme/repos',
      '/repos/acme/api/issues',
      '/repos/acme/web/issues',
      '/repos/acme/cli/issues',
    ]);
    expect(await countOf(view.tables[0].output_table_name)).toBe(3);
    expect(await countOf(view.tables[1].output_table_name)).toBe(5);

    // A second run with override replaces each table's rows, it does not add to them.
    expect(await runOnce(instance)).toMatchObject({ status: 'succeeded', row_count: 8 });
    expect(await countOf(view.tables[1].output_table_name)).toBe(5);
  });

  it('previews, streams and publishes over OData each table to its owner only', async () => {
    const instance = await connect(testApp, spec(), {
      settings: { org: 'acme' },
      operation_ids: ['members', 'issues'],
    });
    await runOnce(instance);
    const view = await instanceView(instance);
    const issues = view.tables.find((table) => table.operation_id === 'issues')!;

    const preview = await instance.agent.get(`/api/assets/table/${issues.output_table_name}`).expect(200);
    expect(preview.body.rows).toHaveLength(5);
    const stranger = await createLoggedInUser(testApp);
    await stranger.agent.get(`/api/assets/table/${issues.output_table_name}`).expect(404);

    const [{ id: ownerId }] = await testApp.dataSource.query(
      `SELECT owner_id AS id FROM connector_instances WHERE id = $1`,
      [instance.id],
    );
    const ownerKey = await setApiKey(testApp.dataSource, ownerId);
    const strangerKey = await setApiKey(testApp.dataSource, stranger.user.id);
    const streamed = await testApp.http
      .get(`/api/stream/data/${issues.stream_reference}`)
      .query({ api_key: ownerKey })
      .expect(200);
    const rows = JSON.parse(streamed.text) as Array<{ repo: string; number: number }>;
    expect(rows.map((row) => `${row.repo}#${row.number}`).sort()).toEqual([
      'api#1',
      'api#2',
      'api#3',
      'cli#1',
      'cli#2',
    ]);
    const own = await testApp.http
      .get(`/api/stream/data/instance-${instance.id}`)
      .query({ api_key: ownerKey })
      .expect(200);
    expect(JSON.parse(own.text)).toHaveLength(MEMBERS);
    await testApp.http
      .get(`/api/stream/data/${issues.stream_reference}`)
      .query({ api_key: strangerKey })
      .expect(404);

    const byName = await testApp.http
      .get(`/api/stream/data/${issues.readable_name}`)
      .query({ api_key: ownerKey })
      .expect(200);
    expect(JSON.parse(byName.text)).toEqual(rows);
    await testApp.http
      .get(`/api/stream/data/${issues.readable_name}`)
      .query({ api_key: strangerKey })
      .expect(404);

    const service = await testApp.http.get('/api/odata').set('X-API-Key', ownerKey).expect(200);
    const names = (service.body.value as Array<{ name: string }>).map((entry) => entry.name);
    expect(names).toEqual(expect.arrayContaining([view.readable_name, issues.readable_name]));
    const issuesSet = issues.readable_name;
    const feed = await testApp.http.get(`/api/odata/${issuesSet}`).set('X-API-Key', ownerKey).expect(200);
    expect(feed.body.value).toHaveLength(5);
    await testApp.http.get(`/api/odata/${issuesSet}`).set('X-API-Key', strangerKey).expect(404);
    const formerSet = `Connector_table_${issues.stream_reference.slice('table-'.length).replace(/-/g, '')}`;
    const former = await testApp.http.get(`/api/odata/${formerSet}`).set('X-API-Key', ownerKey).expect(200);
    expect(former.body.value).toHaveLength(5);
    const strangerService = await testApp.http.get('/api/odata').set('X-API-Key', strangerKey).expect(200);
    expect(JSON.stringify(strangerService.body)).not.toContain(issues.readable_name);
  });

  it('a failing operation fails the run with its name, while the others still fill their tables and count in its rows', async () => {
    const instance = await connect(testApp, spec(), {
      settings: { org: 'acme' },
      operation_ids: ['members', 'broken'],
    });
    const run = await runOnce(instance);
    expect(run.status).toBe('failed');
    // The rows the run stored: the members' table keeps them.
    expect(run.row_count).toBe(MEMBERS);
    expect(String(run.error)).toMatch(/^broken: .*404/);
    expect(
      run.operations.map((outcome) => [outcome.operation_id, outcome.status, outcome.row_count]),
    ).toEqual([
      ['members', 'succeeded', MEMBERS],
      ['broken', 'failed', 0],
    ]);
    const view = await instanceView(instance);
    expect(await countOf(view.output_table_name)).toBe(MEMBERS);
  });

  it('changing the operations creates and drops their tables; removing the instance drops them all', async () => {
    const instance = await connect(testApp, spec(), {
      settings: { org: 'acme' },
      operation_ids: ['repos', 'issues', 'members'],
    });
    const before = await instanceView(instance);
    expect(before.tables).toHaveLength(3);
    const [, issuesTable, membersTable] = before.tables.map((table) => table.output_table_name);

    const patch = (body: Record<string, unknown>) =>
      instance.agent.patch(`/api/connectors/instance/${instance.id}`).set('Origin', TEST_ORIGIN).send(body);
    await patch({ operation_ids: ['repos', 'members'] }).expect(200);
    const narrowed = await instanceView(instance);
    expect(narrowed.operation_ids).toEqual(['repos', 'members']);
    expect(narrowed.tables[1].output_table_name).toBe(membersTable);
    expect(await tableExists(issuesTable)).toBe(false);

    // The further operation becomes the instance's own: its own table is no longer needed.
    await patch({ operation_id: 'members' }).expect(200);
    const swapped = await instanceView(instance);
    expect(swapped.operation_ids).toEqual(['members']);
    expect(swapped.output_table_name).toBe(before.output_table_name);
    expect(await tableExists(membersTable)).toBe(false);

    await patch({ operation_ids: ['members', 'repos'] }).expect(200);
    const regrown = await instanceView(instance);
    expect(regrown.operation_ids).toEqual(['members', 'repos']);
    const reposTable = regrown.tables[1].output_table_name;
    expect(await tableExists(reposTable)).toBe(true);
    expect(await runOnce(instance)).toMatchObject({ status: 'succeeded', row_count: MEMBERS + REPOS.length });
    expect(await countOf(regrown.output_table_name)).toBe(MEMBERS);
    expect(await countOf(reposTable)).toBe(REPOS.length);

    await instance.agent
      .post(`/api/connectors/remove/${instance.id}`)
      .set('Origin', TEST_ORIGIN)
      .send({})
      .expect(200);
    expect(await tableExists(reposTable)).toBe(false);
    expect(await tableExists(regrown.output_table_name)).toBe(false);
    const [{ count }] = await testApp.dataSource.query(
      `SELECT count(*)::int AS count FROM connector_instance_tables WHERE instance_id = $1`,
      [instance.id],
    );
    expect(count).toBe(0);
  });

  it('a run whose process died is marked failed and the staging tables of every stream are dropped', async () => {
    const instance = await connect(testApp, spec(), {
      settings: { org: 'acme' },
      operation_ids: ['repos', 'members'],
    });
    const view = await instanceView(instance);
    // The staging tables exist before the run does: an app starting on the shared test database may
    // recover the run as soon as it is there, and the outcome must be the same.
    const run = { id: randomUUID() };
    const stagings = view.tables.map((table) => stagingTableName(table.output_table_name, run.id));
    for (const staging of stagings) await testApp.dataSource.query(`CREATE TABLE data."${staging}" (x int)`);
    await testApp.dataSource.query(
      `INSERT INTO connector_runs (id, instance_id, trigger, runner_id, heartbeat_at)
       VALUES ($1, $2, 'manual', 'a-process-long-gone', now() - interval '1 hour')`,
      [run.id, instance.id],
    );
    await testApp.app.get(ConnectorRunsService).recoverAbandoned();
    for (const staging of stagings) expect(await tableExists(staging)).toBe(false);
    const [after] = await testApp.dataSource.query(`SELECT status FROM connector_runs WHERE id = $1`, [
      run.id,
    ]);
    expect(after.status).toBe('failed');
  });

  it('refuses operations the spec does not have, repeated ones, an empty list, and both forms at once', async () => {
    const instance = await connect(testApp, spec(), { settings: { org: 'acme' } });
    const patch = (body: Record<string, unknown>) =>
      instance.agent.patch(`/api/connectors/instance/${instance.id}`).set('Origin', TEST_ORIGIN).send(body);
    expect((await patch({ operation_ids: ['repos', 'nope'] }).expect(400)).body.errors).toEqual([
      "operation_ids: 'nope' is not an operation of this connector",
    ]);
    expect((await patch({ operation_ids: ['repos', 'repos'] }).expect(400)).body.errors).toEqual([
      expect.stringContaining('operation_ids'),
    ]);
    expect((await patch({ operation_ids: [] }).expect(400)).body.errors).toEqual([
      expect.stringContaining('operation_ids'),
    ]);
    expect(
      (await patch({ operation_id: 'repos', operation_ids: ['repos'] }).expect(400)).body.errors,
    ).toEqual(['Give operation_id or operation_ids, not both']);
    const [{ count }] = await testApp.dataSource.query(
      `SELECT count(*)::int AS count FROM connector_instance_tables WHERE instance_id = $1`,
      [instance.id],
    );
    expect(count).toBe(0);
  });

  it('a single-operation instance keeps one table and records its one operation', async () => {
    const instance = await connect(testApp, spec(), { settings: { org: 'acme' } });
    const view = await instanceView(instance);
    expect(view.operation_ids).toEqual(['repos']);
    expect(view.tables).toEqual([
      {
        operation_id: 'repos',
        output_table_name: view.output_table_name,
        readable_name: view.readable_name,
        stream_reference: `instance-${instance.id}`,
        published_as: null,
      },
    ]);
    const run = await runOnce(instance);
    expect(run).toMatchObject({ status: 'succeeded', row_count: 3 });
    expect(run.operations).toHaveLength(1);
  });

  it('keeps an incremental state per operation: each asks only for what is newer than its own cursor', async () => {
    const incrementalSpec = spec();
    incrementalSpec.operations = [
      { ...incrementalSpec.operations[0], incremental: { cursor_field: 'name', param: 'since' } },
      { ...incrementalSpec.operations[2], incremental: { cursor_field: 'login', param: 'since' } },
    ] as unknown as typeof incrementalSpec.operations;
    const instance = await connect(testApp, incrementalSpec, {
      settings: { org: 'acme' },
      operation_ids: ['repos', 'members'],
    });
    expect(await runOnce(instance)).toMatchObject({ status: 'succeeded', row_count: 3 + MEMBERS });
    const [{ incremental_state: state }] = await testApp.dataSource.query(
      `SELECT incremental_state FROM connector_instances WHERE id = $1`,
      [instance.id],
    );
    expect(state).toEqual({ cursor: 'web', streams: { members: { cursor: `m${MEMBERS - 1}` } } });
    upstream.requests.splice(0);
    expect(await runOnce(instance)).toMatchObject({ status: 'succeeded' });
    const sent = upstream.requests.map((request) => `${request.url.pathname}${request.url.search}`);
    expect(sent).toEqual([`/orgs/acme/repos?since=web`, `/orgs/acme/members?since=m${MEMBERS - 1}`]);
  });

  it("deleting the connector drops every instance's tables, the further streams' too", async () => {
    const { user: uploader, agent: uploaderAgent } = await createLoggedInUser(testApp);
    const connector = await createConnector(testApp.dataSource, { spec: spec(), ownerId: uploader.id });
    const instance = await connect(
      testApp,
      spec(),
      { settings: { org: 'acme' }, operation_ids: ['repos', 'members'] },
      connector.id,
    );
    const tables = (await instanceView(instance)).tables.map((table) => table.output_table_name);
    await runOnce(instance);
    for (const table of tables) expect(await tableExists(table)).toBe(true);
    await uploaderAgent.delete(`/api/connectors/${connector.id}`).set('Origin', TEST_ORIGIN).expect(200);
    for (const table of tables) expect(await tableExists(table)).toBe(false);
  });
});
