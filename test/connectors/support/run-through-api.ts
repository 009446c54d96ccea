import type { ConnectorSpec } from '../../../src/connectors/dsl/connector-spec.types';
import { createConnector, waitForRuns } from '../../factories/connector.factory';
import { createLoggedInUser } from '../../factories/user.factory';
import { TEST_ORIGIN, TestApp } from '../../support/test-app';

export interface ActivationInput {
  settings?: Record<string, unknown>;
  auth_data?: Record<string, string>;
  iterations?: string[];
  operation_id?: string;
  operation_ids?: string[];
}

export interface ConnectedInstance {
  agent: Awaited<ReturnType<typeof createLoggedInUser>>['agent'];
  id: string;
  connectorId: string;
  /** Runs the instance once (replacing its rows) and answers the finished run and the rows its table holds. */
  run(): Promise<{ run: Record<string, unknown>; stored: number }>;
}

/** Uploads a spec as a connector, activates it for a new user, ready to run through the API. */
export async function connect(
  testApp: TestApp,
  spec: ConnectorSpec,
  input: ActivationInput = {},
  connectorId?: string,
): Promise<ConnectedInstance> {
  const { agent } = await createLoggedInUser(testApp);
  const connector = connectorId ? { id: connectorId } : await createConnector(testApp.dataSource, { spec });
  const { id } = (
    await agent
      .post('/api/connectors/activate')
      .set('Origin', TEST_ORIGIN)
      .send({ connector_id: connector.id, ...input })
      .expect(201)
  ).body as { id: string };
  return {
    agent,
    id,
    connectorId: connector.id,
    run: async () => {
      await agent
        .post(`/api/connectors/instance/${id}/run`)
        .set('Origin', TEST_ORIGIN)
        .send({ override: true })
        .expect(202);
      const [run] = await waitForRuns(agent, id, 20_000);
      const [row] = await testApp.dataSource.query(
        `SELECT output_table_name FROM connector_instances WHERE id = $1`,
        [id],
      );
      const [{ count }] = await testApp.dataSource.query(
        `SELECT count(*)::int AS count FROM data."${row.output_table_name}"`,
      );
      return { run, stored: count as number };
    },
  };
}
