import type { PaginationSpec } from '../../src/connectors/dsl/connector-spec.types';
import { createConnector, simpleSpec, waitForRuns } from '../factories/connector.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { FakeUpstream, sendJson, startFakeUpstream } from './support/fake-upstream';

describe('connectors: Run Now against an upstream that hangs (RUN_NOW_WAIT_SECONDS=1)', () => {
  let testApp: TestApp;
  let upstream: FakeUpstream;
  const held: Array<() => void> = [];

  beforeAll(async () => {
    upstream = await startFakeUpstream(async (request, response) => {
      if (request.url.pathname === '/hang') await new Promise<void>((resolve) => held.push(resolve));
      return sendJson(response, [{ city: 'Berlin' }, { city: 'Lima' }]);
    });
    testApp = await createTestApp({ CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true', RUN_NOW_WAIT_SECONDS: '1' });
  });
  afterAll(async () => {
    held.splice(0).forEach((release) => release());
    await testApp.close();
    await upstream.close();
  });

  async function connectedInstance(path: string, pagination?: PaginationSpec) {
    const { agent } = await createLoggedInUser(testApp);
    const connector = await createConnector(testApp.dataSource, {
      spec: simpleSpec(upstream.origin, { url_path: path, pagination }),
    });
    const { id } = (
      await agent
        .post('/api/connectors/activate')
        .set('Origin', TEST_ORIGIN)
        .send({ connector_id: connector.id })
        .expect(201)
    ).body;
    return { agent, id: id as string };
  }

  it('answers 202 with the run id once the wait is over, and the run goes on to its end', async () => {
    const { agent, id } = await connectedInstance('/hang');
    const started = Date.now();
    const response = await agent.post(`/api/connectors/run/${id}`).set('Origin', TEST_ORIGIN).expect(202);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(response.body).toEqual({ run_id: expect.any(String), status: 'running' });
    const running = await agent.get(`/api/connectors/instance/${id}/runs`).expect(200);
    expect(running.body[0]).toMatchObject({ id: response.body.run_id, status: 'running' });

    held.splice(0).forEach((release) => release());
    const [finished] = await waitForRuns(agent, id);
    expect(finished).toMatchObject({ id: response.body.run_id, status: 'succeeded', row_count: 2 });
  });

  it('still answers 200 with the row count when the run ends within the wait', async () => {
    const { agent, id } = await connectedInstance('/items');
    const response = await agent.post(`/api/connectors/run/${id}`).set('Origin', TEST_ORIGIN).expect(200);
    expect(response.body).toEqual({ rowCount: 2, run_id: expect.any(String), warning: null });
  });

  it("carries the run's warning in the 200 answer and in the run a 202 leaves to follow", async () => {
    // Full pages of two with at most one page: the upstream may have more.
    const capped: PaginationSpec = { type: 'page', page_size: 2, max_pages: 1 };
    const warning = 'Stopped at max_pages (1) with a next page still to ask for: more data may exist';
    const quick = await connectedInstance('/items', capped);
    const answered = await quick.agent
      .post(`/api/connectors/run/${quick.id}`)
      .set('Origin', TEST_ORIGIN)
      .expect(200);
    expect(answered.body).toEqual({ rowCount: 2, run_id: expect.any(String), warning });

    const slow = await connectedInstance('/hang', capped);
    const started = await slow.agent
      .post(`/api/connectors/run/${slow.id}`)
      .set('Origin', TEST_ORIGIN)
      .expect(202);
    held.splice(0).forEach((release) => release());
    const [finished] = await waitForRuns(slow.agent, slow.id);
    expect(finished).toMatchObject({
      id: started.body.run_id,
      status: 'succeeded',
      row_count: 2,
      warning,
    });
  });
});
