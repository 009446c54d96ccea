import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SchemaField, Values } from '../features/connectors/connectorTypes';
import { api } from './client';

/** Typed calls under /api/connectors and their TanStack Query hooks. */

export interface AuthField {
  label: string;
  key: string;
  required: boolean;
}

export interface Connector {
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
  created_at: string;
  owned: boolean;
  has_instance: boolean;
  instance_id: string | null;
  /** The uploaded DSL document (detail only). */
  spec?: Record<string, unknown> | null;
}

export type RunStatus = 'running' | 'succeeded' | 'failed';

export interface ConnectorRun {
  id: string;
  instance_id: string;
  trigger: 'manual' | 'schedule';
  status: RunStatus;
  override: boolean;
  started_at: string;
  finished_at: string | null;
  row_count: number;
  pages_fetched: number;
  error: string | null;
  /** Set when a cap stopped the run: more data may exist upstream. */
  warning: string | null;
}

export interface ConnectorInstance {
  id: string;
  connector_id: string;
  connector_title: string | null;
  title: string;
  visibility: 'private' | 'public';
  refresh_interval: number;
  settings: Values;
  iterations: string[];
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body_template: string | null;
  operation_id: string | null;
  output_table_name: string;
  has_auth_data: boolean;
  last_run_started_at: string | null;
  created_at: string;
  updated_at: string;
  last_run: ConnectorRun | null;
}

/** Fields an owner may set; every one optional on update. */
export interface InstanceSettingsInput {
  refresh_interval?: number;
  settings?: Values;
  auth_data?: Record<string, string>;
  iterations?: string[];
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body_template?: string;
  /** The spec operation (stream) to run; empty = the first. */
  operation_id?: string;
  title?: string;
  visibility?: 'private' | 'public';
}

export interface ActivateInput extends InstanceSettingsInput {
  connector_id: string;
}

export interface RunInput {
  /** Settings for this run only; `override: true` (here or top level) replaces the table's rows. */
  settings?: Values;
  override?: boolean;
}

export interface UploadConnectorInput {
  title: string;
  description?: string;
  is_public?: boolean;
  price?: number;
  /** The DSL document, as an object or its JSON text. */
  spec: unknown;
}

export interface SelectOption {
  label: string;
  value: string | number | boolean;
}

export const connectorKeys = {
  all: ['connectors'] as const,
  list: () => [...connectorKeys.all, 'list'] as const,
  detail: (id: string) => [...connectorKeys.all, 'detail', id] as const,
  mine: () => [...connectorKeys.all, 'my'] as const,
  runs: (instanceId: string) => [...connectorKeys.all, 'runs', instanceId] as const,
  options: (connectorId: string, field: string, values: Values) =>
    [...connectorKeys.all, 'options', connectorId, field, values] as const,
};

export const connectorsApi = {
  list: () => api<Connector[]>('connectors'),
  get: (id: string) => api<Connector>(`connectors/${encodeURIComponent(id)}`),
  mine: () => api<ConnectorInstance[]>('connectors/my'),
  runs: (instanceId: string) =>
    api<ConnectorRun[]>(`connectors/instance/${encodeURIComponent(instanceId)}/runs`),
  activate: (input: ActivateInput) =>
    api<{ id: string }>('connectors/activate', { method: 'POST', body: input }),
  update: (id: string, input: InstanceSettingsInput) =>
    api<ConnectorInstance>(`connectors/instance/${encodeURIComponent(id)}`, { method: 'PATCH', body: input }),
  run: (id: string, input: RunInput = {}) =>
    api<{ run_id: string; status: 'running' }>(`connectors/instance/${encodeURIComponent(id)}/run`, {
      method: 'POST',
      body: input,
    }),
  refresh: (id: string) =>
    api<{ rowCount: number; run_id: string }>(`connectors/run/${encodeURIComponent(id)}`, {
      method: 'POST',
      body: {},
    }),
  remove: (instanceId: string) =>
    api<{ message: string }>(`connectors/remove/${encodeURIComponent(instanceId)}`, {
      method: 'POST',
      body: {},
    }),
  upload: (input: UploadConnectorInput) =>
    api<{ id: string; redirectUrl: string }>('connectors/upload', { method: 'POST', body: input }),
  options: (connectorId: string, field: string, values: Values = {}, instanceId?: string) => {
    const query = new URLSearchParams({ connector_id: connectorId, field, values: JSON.stringify(values) });
    if (instanceId) query.set('instance_id', instanceId);
    return api<{ options: SelectOption[] }>(`connectors/options?${query.toString()}`);
  },
};

export function useConnectors() {
  return useQuery({ queryKey: connectorKeys.list(), queryFn: connectorsApi.list });
}

export function useConnector(id: string | undefined) {
  return useQuery({
    queryKey: connectorKeys.detail(id ?? ''),
    queryFn: () => connectorsApi.get(id!),
    enabled: !!id,
  });
}

export function useMyInstances(enabled = true) {
  return useQuery({ queryKey: connectorKeys.mine(), queryFn: connectorsApi.mine, enabled });
}

/** Run history; polls while a run is going. */
export function useInstanceRuns(instanceId: string | undefined) {
  return useQuery({
    queryKey: connectorKeys.runs(instanceId ?? ''),
    queryFn: () => connectorsApi.runs(instanceId!),
    enabled: !!instanceId,
    refetchInterval: (query) => (query.state.data?.some((run) => run.status === 'running') ? 2000 : false),
  });
}

export function useSelectOptions(connectorId: string, field: string, values: Values, instanceId?: string) {
  return useQuery({
    queryKey: connectorKeys.options(connectorId, field, values),
    queryFn: () => connectorsApi.options(connectorId, field, values, instanceId),
    staleTime: 60_000,
  });
}

/** Connector lists, instances and runs all change together after a write. */
function useInvalidateConnectors() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: connectorKeys.all });
}

export function useActivateConnector() {
  const invalidate = useInvalidateConnectors();
  return useMutation({ mutationFn: connectorsApi.activate, onSuccess: invalidate });
}

export function useUpdateInstance() {
  const invalidate = useInvalidateConnectors();
  return useMutation({
    mutationFn: ({ id, ...input }: InstanceSettingsInput & { id: string }) => connectorsApi.update(id, input),
    onSuccess: invalidate,
  });
}

export function useRunInstance() {
  const invalidate = useInvalidateConnectors();
  return useMutation({
    mutationFn: ({ id, ...input }: RunInput & { id: string }) => connectorsApi.run(id, input),
    onSuccess: invalidate,
  });
}

export function useRefreshInstance() {
  const invalidate = useInvalidateConnectors();
  return useMutation({ mutationFn: (id: string) => connectorsApi.refresh(id), onSettled: invalidate });
}

export function useRemoveInstance() {
  const invalidate = useInvalidateConnectors();
  return useMutation({
    mutationFn: (instanceId: string) => connectorsApi.remove(instanceId),
    onSuccess: invalidate,
  });
}

export function useUploadConnector() {
  const invalidate = useInvalidateConnectors();
  return useMutation({ mutationFn: connectorsApi.upload, onSuccess: invalidate });
}
