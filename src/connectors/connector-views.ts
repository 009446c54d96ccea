import { hideUrlSecrets, specWithoutSecrets } from './dsl/spec-secrets';
import type { AuthField, Connector, SchemaField } from './entities/connector.entity';
import type { ConnectorInstance } from './entities/connector-instance.entity';
import type { ConnectorRun, RunStatus } from './entities/connector-run.entity';

/** A connector as the catalogue and detail screen see it (spec §3 names). */
export interface ConnectorView {
  id: string;
  type: 'connector';
  title: string;
  description: string;
  category: string;
  price: number;
  is_public: boolean;
  owner_user_id: string | null;
  image: string | null;
  source: string;
  author: string;
  fetch_url_template: string;
  schema: { fields: SchemaField[] };
  specification_schema: { fields: SchemaField[] };
  auth_fields: AuthField[];
  subscriber_count: number;
  created_at: Date;
  /** For a logged-in caller: whether they own it / have an instance of it. */
  owned: boolean;
  has_instance: boolean;
  instance_id: string | null;
  /** The uploaded DSL document (detail only). */
  spec?: Record<string, unknown> | null;
}

export interface RunView {
  id: string;
  instance_id: string;
  trigger: 'manual' | 'schedule';
  status: RunStatus;
  override: boolean;
  started_at: Date;
  finished_at: Date | null;
  row_count: number;
  pages_fetched: number;
  error: string | null;
}

/** An instance as its owner sees it; auth data is never part of it, only whether some is stored. */
export interface InstanceView {
  id: string;
  connector_id: string;
  connector_title: string | null;
  title: string;
  visibility: 'private' | 'public';
  refresh_interval: number;
  settings: Record<string, unknown>;
  iterations: string[];
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body_template: string | null;
  output_table_name: string;
  has_auth_data: boolean;
  last_run_started_at: Date | null;
  created_at: Date;
  updated_at: Date;
  last_run: RunView | null;
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

/** auth_fields may be stored as a JSON string or an array (spec §3); always answer an array. */
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
  };
}

export function toInstanceView(
  instance: ConnectorInstance,
  extra: { connectorTitle?: string | null; hasAuthData: boolean; lastRun: ConnectorRun | null },
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
    output_table_name: instance.outputTableName,
    has_auth_data: extra.hasAuthData,
    last_run_started_at: instance.lastRunStartedAt,
    created_at: instance.createdAt,
    updated_at: instance.updatedAt,
    last_run: extra.lastRun ? toRunView(extra.lastRun) : null,
  };
}
