import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { ConnectorSpec } from '../../src/connectors/dsl/connector-spec.types';
import { specToConnector } from '../../src/connectors/dsl/spec-to-connector';
import type { AuthField, SchemaField } from '../../src/connectors/entities/connector.entity';

export interface ConnectorOptions {
  title?: string;
  ownerId?: string | null;
  price?: number;
  /** A DSL document: template, fields and auth come from it. */
  spec?: ConnectorSpec;
  /** Without a spec: a bare template and fields, like a connector entered by hand. */
  fetchUrlTemplate?: string;
  fields?: SchemaField[];
  authFields?: AuthField[] | string;
}

export interface TestConnector {
  id: string;
  title: string;
}

/** A connector whose operation reads `<origin>/items` (no auth, no paging) unless told otherwise. */
export function simpleSpec(
  origin: string,
  overrides: Partial<ConnectorSpec['operations'][0]> = {},
): ConnectorSpec {
  return {
    protocol: 'http',
    base_url: origin,
    operations: [{ id: 'items', name: 'Items', method: 'GET', url_path: '/items', ...overrides }],
    fields: [],
  };
}

/** Inserts a connector straight into the database. */
export async function createConnector(
  dataSource: DataSource,
  options: ConnectorOptions = {},
): Promise<TestConnector> {
  const title = options.title ?? `Connector ${randomUUID().slice(0, 8)}`;
  const definition = options.spec ? specToConnector(options.spec) : undefined;
  const [row] = await dataSource.query(
    `INSERT INTO connectors (owner_id, title, description, price, fetch_url_template, schema, specification_schema,
                             auth_fields, spec)
     VALUES ($1, $2, 'A test connector', $3, $4, $5, $6, $7, $8) RETURNING id`,
    [
      options.ownerId ?? null,
      title,
      options.price ?? 0,
      definition?.fetchUrlTemplate ?? options.fetchUrlTemplate ?? 'https://example.com/data',
      JSON.stringify({ fields: definition?.schemaFields ?? options.fields ?? [] }),
      JSON.stringify({ fields: definition?.specificationFields ?? [] }),
      JSON.stringify(definition?.authFields ?? options.authFields ?? []),
      options.spec ? JSON.stringify(options.spec) : null,
    ],
  );
  return { id: row.id, title };
}

/** Polls the run history until no run is running (background runs). */
export async function waitForRuns(
  agent: { get(url: string): PromiseLike<{ body: Array<{ status: string }> }> },
  instanceId: string,
  timeoutMs = 10_000,
): Promise<Array<Record<string, unknown>>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await agent.get(`/api/connectors/instance/${instanceId}/runs`);
    const runs = response.body as Array<Record<string, unknown>>;
    if (runs.length > 0 && runs.every((run) => run.status !== 'running')) return runs;
    if (Date.now() > deadline) throw new Error(`Runs of ${instanceId} still running after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
