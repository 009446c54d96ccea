import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { createConnector, simpleSpec } from '../../factories/connector.factory';
import { createLoggedInUser, TestUser } from '../../factories/user.factory';
import { TEST_ORIGIN, TestApp } from '../../support/test-app';

export type Agent = TestAgent<Test>;

export interface Connection {
  owner: { user: TestUser; agent: Agent };
  connectorId: string;
  instanceId: string;
  /** The readable name of the connection's table, as the publish call takes it. */
  table: string;
}

export const post = (agent: Agent, url: string, body: object = {}) =>
  agent.post(url).set('Origin', TEST_ORIGIN).send(body);

/** Runs the connection to its end (Run Now) and answers the status the API gave. */
export async function runNow(agent: Agent, instanceId: string): Promise<number> {
  return (await post(agent, `/api/connectors/run/${instanceId}`)).status;
}

/** A new owner with a connection to `<origin><path>`, run once so its table has columns. */
export async function connectionWithRows(
  testApp: TestApp,
  origin: string,
  path: string,
  override = true,
): Promise<Connection> {
  // Pro: only pro users may give a connection a schedule.
  const owner = await createLoggedInUser(testApp, { proUser: true });
  // The owner uploaded the connector too, so deleting it is theirs to try.
  const connector = await createConnector(testApp.dataSource, {
    ownerId: owner.user.id,
    spec: simpleSpec(origin, { url_path: path }),
  });
  const activated = await post(owner.agent, '/api/connectors/activate', {
    connector_id: connector.id,
    settings: { override },
  }).expect(201);
  const instanceId: string = activated.body.id;
  const status = await runNow(owner.agent, instanceId);
  if (status !== 200) throw new Error(`The first run answered ${status}`);
  const instances = (await owner.agent.get('/api/connectors/my').expect(200)).body as Array<{
    id: string;
    tables: Array<{ readable_name: string }>;
  }>;
  const table = instances.find((instance) => instance.id === instanceId)!.tables[0].readable_name;
  return { owner, connectorId: connector.id, instanceId, table };
}

/** Publishes the connection's table with the given title; answers the dataset's id. */
export async function publish(connection: Connection, fields: object = {}): Promise<string> {
  const response = await post(
    connection.owner.agent,
    `/api/connectors/instance/${connection.instanceId}/publish`,
    {
      table: connection.table,
      title: `Live ${connection.table}`,
      ...fields,
    },
  ).expect(201);
  return response.body.id;
}

/** A second user holding the (free) dataset, with an API key for streams and OData. */
export async function subscriberOf(testApp: TestApp, assetId: string) {
  const subscriber = await createLoggedInUser(testApp);
  await post(subscriber.agent, '/api/access/grant', { assetId }).expect((response) => {
    if (response.status >= 300) throw new Error(`grant answered ${response.status}`);
  });
  const key: string = (
    await post(subscriber.agent, '/api/dev/apikey', { email: subscriber.user.email }).expect(200)
  ).body.api_key;
  return { ...subscriber, key };
}

/** The user's notices of one kind, oldest first. */
export async function noticesOf(testApp: TestApp, userId: string, kind: string) {
  const rows: Array<{ subject: string; text: string }> = await testApp.dataSource.query(
    `SELECT subject, text FROM notifications WHERE user_id = $1 AND kind = $2 ORDER BY created_at, id`,
    [userId, kind],
  );
  return rows;
}
