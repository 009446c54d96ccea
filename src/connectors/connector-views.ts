import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { hideUrlSecrets, specWithoutSecrets } from './dsl/spec-secrets';
import type { AuthField, Connector, SchemaField } from './entities/connector.entity';
import type { ConnectorInstance } from './entities/connector-instance.entity';
import type { ConnectorRun, RunOperationOutcome, RunStatus } from './entities/connector-run.entity';
import type { InstanceTarget } from './instance-operations';

const SCALAR_VALUE = { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] };
/** Any JSON value: a field's default may be text, a number, a flag, a list or an object. */
const ANY_JSON_VALUE = {
  oneOf: [
    ...SCALAR_VALUE.oneOf,
    { type: 'object', additionalProperties: true },
    { type: 'array', items: {} },
  ],
  nullable: true,
};
const OBJECT_OF_ANYTHING = { type: 'object', additionalProperties: true } as const;
const OBJECT_OF_TEXT = { type: 'object', additionalProperties: { type: 'string' } } as const;

/**
 * A schema field as the connector DSL allows it (see connector-spec.schema.ts), for the OpenAPI
 * document: the DSL's validator, not the SchemaField interface, decides what is stored.
 */
@ApiSchema({ name: 'SchemaField' })
class SchemaFieldDocument {
  @ApiProperty()
  key: string;

  @ApiPropertyOptional()
  label?: string;

  @ApiProperty({ enum: ['text', 'number', 'date', 'bool', 'boolean', 'select', 'group'] })
  type: SchemaField['type'];

  @ApiPropertyOptional()
  description?: string;

  @ApiPropertyOptional({
    type: 'array',
    items: {
      oneOf: [
        ...SCALAR_VALUE.oneOf,
        {
          type: 'object',
          properties: { label: { type: 'string' }, value: SCALAR_VALUE },
          required: ['value'],
        },
      ],
    },
  })
  options?: unknown[];

  @ApiPropertyOptional({ type: () => [SchemaFieldDocument], description: 'The fields of a group' })
  fields?: SchemaFieldDocument[];

  @ApiPropertyOptional({
    ...OBJECT_OF_ANYTHING,
    description: 'Shown only while every listed key holds the given value (or one of the values)',
  })
  conditions?: Record<string, unknown>;

  @ApiPropertyOptional({ description: 'The value goes to auth data, never to settings' })
  private?: boolean;

  @ApiPropertyOptional({ description: 'false: shown in the form but left out of settings' })
  include?: boolean;

  @ApiPropertyOptional()
  required?: boolean;

  @ApiPropertyOptional(ANY_JSON_VALUE)
  default?: unknown;

  @ApiPropertyOptional({
    description: 'An operation id, a path or URL template, or that with response and option key mapping',
    oneOf: [
      { type: 'string' },
      {
        type: 'object',
        properties: {
          operation: { type: 'string' },
          url: { type: 'string' },
          response_path: { type: 'string' },
          value_key: { type: 'string' },
          label_key: { type: 'string' },
        },
      },
    ],
  })
  options_endpoint?: SchemaField['options_endpoint'];

  @ApiPropertyOptional({ type: [String] })
  depends_on?: string[];
}

@ApiSchema({ name: 'SchemaFieldList' })
class SchemaFieldListDocument {
  @ApiProperty({ type: () => [SchemaFieldDocument] })
  fields: SchemaField[];
}

@ApiSchema({ name: 'AuthField' })
class AuthFieldDocument {
  @ApiProperty()
  label: string;

  @ApiProperty()
  key: string;

  @ApiProperty()
  required: boolean;
}

/** A connector as the catalogue and detail screen see it (names of the product spec). */
export class ConnectorView {
  @ApiProperty()
  id: string;

  @ApiProperty({ enum: ['connector'] })
  type: 'connector';

  @ApiProperty()
  title: string;

  @ApiProperty()
  description: string;

  @ApiProperty()
  category: string;

  @ApiProperty()
  price: number;

  @ApiProperty()
  is_public: boolean;

  @ApiProperty({ type: String, nullable: true })
  owner_user_id: string | null;

  @ApiProperty({ type: String, nullable: true })
  image: string | null;

  @ApiProperty()
  source: string;

  @ApiProperty()
  author: string;

  @ApiProperty({ description: 'URL with {{placeholders}} filled from the settings' })
  fetch_url_template: string;

  @ApiProperty({ type: () => SchemaFieldListDocument })
  schema: { fields: SchemaField[] };

  @ApiProperty({ type: () => SchemaFieldListDocument })
  specification_schema: { fields: SchemaField[] };

  @ApiProperty({ type: () => [AuthFieldDocument] })
  auth_fields: AuthField[];

  @ApiProperty()
  subscriber_count: number;

  @ApiProperty({ type: String, format: 'date-time' })
  created_at: Date;

  @ApiProperty({ description: 'The logged-in caller uploaded it' })
  owned: boolean;

  @ApiProperty({ description: 'The logged-in caller has an instance of it' })
  has_instance: boolean;

  @ApiProperty({ type: String, nullable: true })
  instance_id: string | null;

  @ApiPropertyOptional({
    ...OBJECT_OF_ANYTHING,
    nullable: true,
    description: 'The uploaded DSL document (detail only)',
  })
  spec?: Record<string, unknown> | null;
}

/** What one operation of a run did (an instance running several operations has one each). */
export class RunOperationView {
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The operation (stream); null only for a connector without a spec',
  })
  operation_id: string | null;

  @ApiProperty()
  output_table_name: string;

  @ApiProperty({ enum: ['succeeded', 'failed'] })
  status: 'succeeded' | 'failed';

  @ApiProperty()
  row_count: number;

  @ApiProperty()
  pages_fetched: number;

  @ApiProperty({ type: String, nullable: true })
  error: string | null;

  @ApiProperty({ type: String, nullable: true })
  warning: string | null;
}

/** A table an instance fills: its own (first operation) or a further operation's. */
export class InstanceTableView {
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The operation (stream); null only for a connector without a spec',
  })
  operation_id: string | null;

  @ApiProperty()
  output_table_name: string;

  @ApiProperty({ description: 'The {reference} of the stream links and OData: instance-<id> or table-<id>' })
  stream_reference: string;
}

export class RunView {
  @ApiProperty()
  id: string;

  @ApiProperty()
  instance_id: string;

  @ApiProperty({ enum: ['manual', 'schedule'] })
  trigger: 'manual' | 'schedule';

  @ApiProperty({ enum: ['running', 'succeeded', 'failed'] })
  status: RunStatus;

  @ApiProperty({ description: "The run replaces the table's rows" })
  override: boolean;

  @ApiProperty({ type: String, format: 'date-time' })
  started_at: Date;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  finished_at: Date | null;

  @ApiProperty()
  row_count: number;

  @ApiProperty()
  pages_fetched: number;

  @ApiProperty({ type: String, nullable: true })
  error: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Set when a cap stopped the run: more data may exist upstream',
  })
  warning: string | null;

  @ApiProperty({
    type: () => [RunOperationView],
    description: 'Per operation, in the order they ran (empty for runs recorded before operations were)',
  })
  operations: RunOperationView[];
}

/** An instance as its owner sees it; auth data is never part of it, only whether some is stored. */
export class InstanceView {
  @ApiProperty()
  id: string;

  @ApiProperty()
  connector_id: string;

  @ApiProperty({ type: String, nullable: true })
  connector_title: string | null;

  @ApiProperty()
  title: string;

  @ApiProperty({ enum: ['private', 'public'] })
  visibility: 'private' | 'public';

  @ApiProperty({ description: 'Minutes between scheduled runs; 0 means manual only' })
  refresh_interval: number;

  @ApiProperty({ ...OBJECT_OF_ANYTHING, description: 'Nested settings (groups as nested objects)' })
  settings: Record<string, unknown>;

  @ApiProperty({ type: [String], description: 'Setting keys whose list values each get their own requests' })
  iterations: string[];

  @ApiProperty({ enum: ['GET', 'POST'] })
  method: 'GET' | 'POST';

  @ApiProperty(OBJECT_OF_TEXT)
  headers: Record<string, string>;

  @ApiProperty({ type: String, nullable: true })
  body_template: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The spec operation (stream) the instance runs; null = the first',
  })
  operation_id: string | null;

  @ApiProperty()
  output_table_name: string;

  @ApiProperty({
    type: [String],
    description:
      'Every operation the instance runs: the first writes output_table_name, each further one its own table',
  })
  operation_ids: string[];

  @ApiProperty({
    type: () => [InstanceTableView],
    description: 'Every table the instance fills, its own first',
  })
  tables: InstanceTableView[];

  @ApiProperty()
  has_auth_data: boolean;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  last_run_started_at: Date | null;

  @ApiProperty({ type: String, format: 'date-time' })
  created_at: Date;

  @ApiProperty({ type: String, format: 'date-time' })
  updated_at: Date;

  @ApiProperty({ type: () => RunView, nullable: true })
  last_run: RunView | null;
}

/** POST connectors/activate: the new instance. */
export class ActivatedInstance {
  @ApiProperty()
  id: string;
}

/** POST connectors/upload: the new connector and where it is shown. */
export class UploadedConnector {
  @ApiProperty()
  id: string;

  @ApiProperty({ example: '/connector_profile/0b6e…' })
  redirectUrl: string;
}

/** POST connectors/instance/{id}/run: the run goes on in the background. */
export class RunStarted {
  @ApiProperty()
  run_id: string;

  @ApiProperty({ enum: ['running'] })
  status: 'running';
}

/** POST connectors/run/{id}: the finished run. */
export class RunFinished {
  @ApiProperty()
  rowCount: number;

  @ApiProperty()
  run_id: string;
}

@ApiSchema({ name: 'SelectOption' })
class SelectOptionDocument {
  @ApiProperty()
  label: string;

  @ApiProperty(SCALAR_VALUE)
  value: string | number | boolean;
}

/** GET connectors/options: the choices of a select field with an options_endpoint. */
export class SelectOptions {
  @ApiProperty({ type: () => [SelectOptionDocument] })
  options: SelectOptionDocument[];
}

/** A connector as the caller may see it: static credentials in its spec are for its owner only. */
export function toConnectorView(
  connector: Connector,
  caller: { userId?: string; instanceId?: string | null },
  detail = false,
): ConnectorView {
  const owned = !!caller.userId && connector.ownerId === caller.userId;
  return {
    id: connector.id,
    type: 'connector',
    title: connector.title,
    description: connector.description,
    category: connector.category || 'API',
    price: Number(connector.price),
    is_public: connector.isPublic,
    owner_user_id: connector.ownerId,
    image: connector.image,
    source: connector.source,
    author: connector.author,
    fetch_url_template: owned ? connector.fetchUrlTemplate : hideUrlSecrets(connector.fetchUrlTemplate),
    schema: { fields: connector.schema?.fields ?? [] },
    specification_schema: { fields: connector.specificationSchema?.fields ?? [] },
    auth_fields: normalizeAuthFields(connector.authFields),
    subscriber_count: connector.subscriberCount,
    created_at: connector.createdAt,
    owned,
    has_instance: !!caller.instanceId,
    instance_id: caller.instanceId ?? null,
    ...(detail ? { spec: owned ? connector.spec : specWithoutSecrets(connector.spec) } : {}),
  };
}

/** auth_fields may be stored as a JSON string or an array; always answer an array. */
export function normalizeAuthFields(raw: unknown): AuthField[] {
  let value = raw;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(value)) return [];
  return value
    .filter(
      (field): field is AuthField => !!field && typeof field === 'object' && typeof field.key === 'string',
    )
    .map((field) => ({ label: field.label ?? field.key, key: field.key, required: !!field.required }));
}

export function toRunView(run: ConnectorRun): RunView {
  return {
    id: run.id,
    instance_id: run.instanceId,
    trigger: run.trigger,
    status: run.status,
    override: run.override,
    started_at: run.startedAt,
    finished_at: run.finishedAt,
    row_count: run.rowCount,
    pages_fetched: run.pagesFetched,
    error: run.error,
    warning: run.warning ?? null,
    operations: (run.operations ?? []).map((outcome: RunOperationOutcome) => ({ ...outcome })),
  };
}

export function toInstanceView(
  instance: ConnectorInstance,
  extra: {
    connectorTitle?: string | null;
    hasAuthData: boolean;
    lastRun: ConnectorRun | null;
    targets: InstanceTarget[];
  },
): InstanceView {
  return {
    id: instance.id,
    connector_id: instance.connectorId,
    connector_title: extra.connectorTitle ?? null,
    title: instance.title,
    visibility: instance.visibility,
    refresh_interval: instance.refreshInterval,
    settings: instance.settings,
    iterations: instance.iterations,
    method: instance.method,
    headers: instance.headers,
    body_template: instance.bodyTemplate,
    operation_id: instance.operationId ?? null,
    output_table_name: instance.outputTableName,
    operation_ids: extra.targets.flatMap((target) => (target.operationId ? [target.operationId] : [])),
    tables: extra.targets.map((target) => ({
      operation_id: target.operationId,
      output_table_name: target.tableName,
      stream_reference: target.streamReference,
    })),
    has_auth_data: extra.hasAuthData,
    last_run_started_at: instance.lastRunStartedAt,
    created_at: instance.createdAt,
    updated_at: instance.updatedAt,
    last_run: extra.lastRun ? toRunView(extra.lastRun) : null,
  };
}

export class TestReadRequest {
  @ApiProperty()
  method: string;

  @ApiProperty({ description: 'The URL requested, credentials masked' })
  url: string;

  @ApiProperty({ type: Number, nullable: true, description: 'null when no answer came' })
  status: number | null;

  @ApiProperty({ description: 'Milliseconds until the answer' })
  ms: number;
}

export class TestReadColumn {
  @ApiProperty({ description: 'The column a run would write' })
  name: string;

  @ApiProperty({ description: 'The record field it comes from' })
  field: string;

  @ApiProperty({ enum: ['boolean', 'numeric', 'date', 'timestamptz', 'text', 'jsonb'] })
  type: string;
}

export class TestReadResult {
  @ApiProperty({ type: [TestReadRequest] })
  requests: TestReadRequest[];

  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description: 'At most 100 records as a run would write them (numbers beyond a double as text)',
  })
  records: Record<string, unknown>[];

  @ApiProperty({ type: [TestReadColumn] })
  columns: TestReadColumn[];

  @ApiProperty({ type: [String] })
  warnings: string[];

  @ApiProperty({ type: String, nullable: true, description: 'Why the read stopped early, if it failed' })
  error: string | null;

  @ApiProperty()
  pages: number;
}
