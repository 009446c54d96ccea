import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { uploadDataset } from '../factories/asset.factory';
import { createConnector } from '../factories/connector.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

interface Schema {
  $ref?: string;
  properties?: Record<string, { nullable?: boolean }>;
  allOf?: Schema[];
}
interface OpenApi {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: Schema }> } }>>;
  components: { schemas: Record<string, Schema> };
}

/** The API's committed OpenAPI description (`npm run openapi -- --check` keeps it current). */
const openApi = JSON.parse(
  readFileSync(join(__dirname, '../../frontend/src/api/openapi.json'), 'utf8'),
) as OpenApi;

function resolve(schema: Schema | undefined): Schema {
  if (!schema) return {};
  if (schema.$ref) return resolve(openApi.components.schemas[schema.$ref.split('/').pop()!]);
  if (schema.allOf)
    return { properties: Object.assign({}, ...schema.allOf.map((part) => resolve(part).properties)) };
  return schema;
}

/** Every field of every PATCH and PUT body the API describes, with whether it says null is allowed. */
const cases = Object.entries(openApi.paths).flatMap(([path, operations]) =>
  (['patch', 'put'] as const).flatMap((method) => {
    const body = operations[method]?.requestBody?.content?.['application/json']?.schema;
    if (!operations[method] || !body) return [];
    return Object.entries(resolve(body).properties ?? {}).map(([field, property]) => ({
      method,
      path,
      field,
      nullable: Boolean(property.nullable),
    }));
  }),
);

/**
 * Null for a field that may be left out is no "leave it as it is": before, `{"name": null}`
 * passed validation and reached a NOT NULL column as a 500. Every field of every PATCH and PUT
 * is sent as null alone: 400 unless the description says the field takes null.
 */
describe('null in every field of every PATCH and PUT', () => {
  let testApp: TestApp;
  let owner: Awaited<ReturnType<typeof createLoggedInUser>>;
  /** The URL of one item of the caller's for each path with parameters. */
  const items = new Map<string, string>();

  beforeAll(async () => {
    testApp = await createTestApp();
    owner = await createLoggedInUser(testApp);
    const datasetId = await uploadDataset(owner.agent);
    const connector = await createConnector(testApp.dataSource);
    const instance = await owner.agent
      .post('/api/connectors/activate')
      .set('Origin', TEST_ORIGIN)
      .send({ connector_id: connector.id, settings: {} })
      .expect(201);
    const saved = await owner.agent
      .post('/api/query/saved')
      .set('Origin', TEST_ORIGIN)
      .send({ name: 'null check', sql: 'SELECT 1' })
      .expect(201);
    const organisation = await owner.agent
      .post('/api/organisations')
      .set('Origin', TEST_ORIGIN)
      .send({ name: 'Null check', slug: `null-check-${Date.now()}` })
      .expect(201);
    items.set('/api/assets/{id}', `/api/assets/${datasetId}`);
    items.set('/api/organisations/{id}', `/api/organisations/${organisation.body.id}`);
    items.set('/api/organisations/{id}/sso', `/api/organisations/${organisation.body.id}/sso`);
    items.set(
      '/api/organisations/{id}/members/{userId}',
      `/api/organisations/${organisation.body.id}/members/${owner.user.id}`,
    );
    items.set('/api/connectors/instance/{id}', `/api/connectors/instance/${instance.body.id}`);
    items.set('/api/query/saved/{id}', `/api/query/saved/${saved.body.id}`);
  });
  afterAll(() => testApp.close());

  it('finds the bodies to try', () => {
    expect(cases.length).toBeGreaterThan(10);
    // A new route needs an item here: the test would otherwise not try it.
    for (const { path } of cases)
      expect([path, items.has(path) || !path.includes('{')]).toEqual([path, true]);
  });

  it.each(cases)('$method $path with $field: null', async ({ method, path, field, nullable }) => {
    const response = await owner.agent[method](items.get(path) ?? path)
      .set('Origin', TEST_ORIGIN)
      .send({ [field]: null });
    if (nullable) expect(response.status).toBeLessThan(400);
    else {
      expect(response.status).toBe(400);
      expect(typeof response.body.message).toBe('string');
    }
  });
});
