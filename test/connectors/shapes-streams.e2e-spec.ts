import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { waitForRuns } from '../factories/connector.factory';
import { FakeUpstream, sendJson, startFakeUpstream } from './support/fake-upstream';
import { connect } from './support/run-through-api';

const REPOS = ['api', 'web', 'cli'];
const ISSUES: Record<string, number> = { api: 3, web: 0, cli: 2 };

/** Every operation of a spec is usable: an instance picks its stream; a child iterates its parent's records. */
describe('connector shapes: operations and parent streams', () => {
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
      const match = /^\/repos\/acme\/([^/]+)\/issues$/.exec(path);
      if (match) {
        const count = ISSUES[match[1]] ?? 0;
        return sendJson(
          response,
          Array.from({ length: count }, (_, index) => ({ number: index + 1 })),
        );
      }
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
    ],
    fields: [{ key: 'org', type: 'text' as const, required: true }],
  });

  it('runs the first operation unless the instance picks another', async () => {
    const instance = await connect(testApp, spec(), { settings: { org: 'acme' } });
    const { run, stored } = await instance.run();
    expect(run).toMatchObject({ status: 'succeeded', row_count: 3 });
    expect(stored).toBe(3);
  });

  it('a child stream runs once per parent record (repositories → their issues), storing only the child rows', async () => {
    const instance = await connect(testApp, spec(), { settings: { org: 'acme' }, operation_id: 'issues' });
    upstream.requests.splice(0);
    const { run, stored } = await instance.run();
    expect(run).toMatchObject({ status: 'succeeded', row_count: 5, pages_fetched: 4 });
    expect(stored).toBe(5);
    expect(upstream.requests.map((request) => request.url.pathname)).toEqual([
      '/orgs/acme/repos',
      '/repos/acme/api/issues',
      '/repos/acme/web/issues',
      '/repos/acme/cli/issues',
    ]);
    const [mine] = (await instance.agent.get('/api/connectors/my')).body;
    expect(mine.operation_id).toBe('issues');
  });

  it('refuses an operation the spec does not have', async () => {
    const instance = await connect(testApp, spec(), { settings: { org: 'acme' } });
    const response = await instance.agent
      .patch(`/api/connectors/instance/${instance.id}`)
      .set('Origin', TEST_ORIGIN)
      .send({ operation_id: 'nope' })
      .expect(400);
    expect(response.body.errors).toEqual(["operation_id: 'nope' is not an operation of this connector"]);
  });

  it('runs several streams of one connector for one user, each into its own table', async () => {
    const repos = await connect(testApp, spec(), { settings: { org: 'acme' } });
    const { id: issuesId } = (
      await repos.agent
        .post('/api/connectors/activate')
        .set('Origin', TEST_ORIGIN)
        .send({ connector_id: repos.connectorId, settings: { org: 'acme' }, operation_id: 'issues' })
        .expect(201)
    ).body as { id: string };
    await repos.agent
      .post(`/api/connectors/instance/${issuesId}/run`)
      .set('Origin', TEST_ORIGIN)
      .send({})
      .expect(202);
    await waitForRuns(repos.agent, issuesId, 20_000);
    expect((await repos.run()).stored).toBe(3);
    const tables: Array<{ id: string; output_table_name: string }> = await testApp.dataSource.query(
      `SELECT id, output_table_name FROM connector_instances WHERE id = ANY($1)`,
      [[repos.id, issuesId]],
    );
    expect(new Set(tables.map((row) => row.output_table_name)).size).toBe(2);
    const issuesTable = tables.find((row) => row.id === issuesId)!.output_table_name;
    const [{ count }] = await testApp.dataSource.query(
      `SELECT count(*)::int AS count FROM data."${issuesTable}"`,
    );
    expect(count).toBe(5);
  });
});
