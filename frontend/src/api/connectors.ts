import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from './client';
import type { components } from './schema';

/** Connectors: the catalogue, one connector, the user's instances, their runs and tables, uploads. */

type Schemas = components['schemas'];
export type Connector = Schemas['ConnectorView'];
export type SchemaField = Schemas['SchemaField'];
export type AuthField = Schemas['AuthField'];
export type ConnectorInstance = Schemas['InstanceView'];
export type ConnectorRun = Schemas['RunView'];
export type RunStatus = ConnectorRun['status'];
export type InstanceTableRows = Schemas['ConnectorTableRows'];
export type SelectOption = Schemas['SelectOption'];
export type ActivateInput = Schemas['ActivateConnectorDto'];
export type InstanceUpdate = Schemas['UpdateInstanceDto'];
export type UploadConnectorInput = Schemas['UploadConnectorDto'];
export type TestReadInput = Schemas['TestReadDto'];
export type TestReadResult = Schemas['TestReadResult'];

export const connectorKeys = {
  all: ['connectors'] as const,
  lists: () => [...connectorKeys.all, 'list'] as const,
  detail: (id: string) => [...connectorKeys.all, 'detail', id] as const,
  mine: () => [...connectorKeys.all, 'my'] as const,
  runs: (instanceId: string) => [...connectorKeys.all, 'runs', instanceId] as const,
  /** The rows of every instance's output table. */
  tables: () => [...connectorKeys.all, 'table'] as const,
  table: (tableName: string) => [...connectorKeys.tables(), tableName] as const,
  options: (connectorId: string, field: string, values: Record<string, unknown>, instanceId?: string) =>
    [...connectorKeys.all, 'options', connectorId, field, values, instanceId ?? null] as const,
};

/** GET connectors: every connector, with the caller's instance when logged in. */
export function useConnectors(enabled = true) {
  return useQuery({
    queryKey: connectorKeys.lists(),
    queryFn: () => api<Connector[]>('connectors'),
    enabled,
  });
}

export function useConnectorDetail(id: string) {
  return useQuery({
    queryKey: connectorKeys.detail(id),
    queryFn: () => api<Connector>(`connectors/${encodeURIComponent(id)}`),
  });
}

/** GET connectors/my: the signed-in user's instances with their last run. */
export function useMyInstances(enabled: boolean) {
  return useQuery({
    queryKey: connectorKeys.mine(),
    queryFn: () => api<ConnectorInstance[]>('connectors/my'),
    enabled,
  });
}

const POLL_MS = 2000;

/**
 * GET connectors/instance/{id}/runs, newest first; polled while a run is going or until
 * `watchUntil` (a moment shortly after Run Now, before the new run shows up).
 */
export function useInstanceRuns(instanceId: string | undefined, watchUntil: number) {
  return useQuery({
    queryKey: connectorKeys.runs(instanceId ?? ''),
    queryFn: () => api<ConnectorRun[]>(`connectors/instance/${encodeURIComponent(instanceId ?? '')}/runs`),
    enabled: !!instanceId,
    refetchInterval: (query) =>
      query.state.data?.some((run) => run.status === 'running') || Date.now() < watchUntil ? POLL_MS : false,
  });
}

/** GET assets/table/{output_table_name}: the latest 100 rows an instance fetched (owner only). */
export function useInstanceTableRows(tableName: string | undefined) {
  return useQuery({
    queryKey: connectorKeys.table(tableName ?? ''),
    queryFn: () => api<InstanceTableRows>(`assets/table/${encodeURIComponent(tableName ?? '')}`),
    enabled: !!tableName,
  });
}

/** Path of GET connectors/options: the values the field depends on travel as one JSON parameter. */
export function selectOptionsPath(
  connectorId: string,
  field: string,
  values: Record<string, unknown>,
  instanceId?: string,
): string {
  const query = new URLSearchParams({ connector_id: connectorId, field, values: JSON.stringify(values) });
  if (instanceId) query.set('instance_id', instanceId);
  return `connectors/options?${query}`;
}

/**
 * The choices of a select field with an options_endpoint, given the current values of the fields
 * it depends on; with an instance, the look-up may use its stored credentials.
 */
export function selectOptionsQuery(
  connectorId: string,
  field: string,
  values: Record<string, unknown>,
  instanceId?: string,
) {
  return queryOptions({
    queryKey: connectorKeys.options(connectorId, field, values, instanceId),
    queryFn: async () =>
      (await api<Schemas['SelectOptions']>(selectOptionsPath(connectorId, field, values, instanceId)))
        .options,
    staleTime: 60_000,
  });
}

/** `enabled` is false until every field the look-up depends on has a value. */
export function useSelectOptions(
  connectorId: string,
  field: string,
  values: Record<string, unknown>,
  instanceId?: string,
  enabled = true,
) {
  return useQuery({ ...selectOptionsQuery(connectorId, field, values, instanceId), enabled });
}

/** POST connectors/activate -> {id}: creates the user's instance of a connector. */
export function useActivateConnector() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ActivateInput) =>
      api<Schemas['ActivatedInstance']>('connectors/activate', { method: 'POST', body: input }),
    // The catalogue and the connector's page show whether the user has an instance, and its subscribers.
    onSuccess: (_answer, input) =>
      Promise.all(
        [connectorKeys.lists(), connectorKeys.detail(input.connector_id), connectorKeys.mine()].map(
          (queryKey) => queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
}

/** PATCH connectors/instance/{id}: the instance's settings, request options and credentials. */
export function useUpdateInstance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, update }: { id: string; update: InstanceUpdate }) =>
      api<ConnectorInstance>(`connectors/instance/${encodeURIComponent(id)}`, {
        method: 'PATCH',
        body: update,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: connectorKeys.mine() }),
  });
}

/** POST connectors/instance/{id}/run: starts a run in the background and answers at once. */
export function useTriggerRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, settings }: { id: string; settings: Record<string, unknown> }) =>
      api<Schemas['RunStarted']>(`connectors/instance/${encodeURIComponent(id)}/run`, {
        method: 'POST',
        body: { settings } satisfies Schemas['RunInstanceDto'],
      }),
    onSuccess: (_answer, { id }) => queryClient.invalidateQueries({ queryKey: connectorKeys.runs(id) }),
  });
}

/**
 * What a finished run changed: the instance's table and its last run. For runs watched while they
 * go on in the background (Run Now, schedules).
 */
export function useReloadAfterRun() {
  const queryClient = useQueryClient();
  return useCallback(
    (tableNames: string[]) =>
      Promise.all([
        ...tableNames.map((tableName) =>
          queryClient.invalidateQueries({ queryKey: connectorKeys.table(tableName) }),
        ),
        queryClient.invalidateQueries({ queryKey: connectorKeys.mine() }),
      ]),
    [queryClient],
  );
}

const FOLLOW_EVERY_MS = 2000;

/** What Manage's Refresh reports: the rows stored, and why they may be incomplete. */
export interface RefreshOutcome {
  rowCount: number;
  warning: string | null;
}

/** Polls the run history until the run has ended: its rows, or its error like a failed refresh. */
async function followRun(instanceId: string, runId: string, everyMs: number): Promise<RefreshOutcome> {
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, everyMs));
    const runs = await api<ConnectorRun[]>(`connectors/instance/${encodeURIComponent(instanceId)}/runs`);
    const run = runs.find((candidate) => candidate.id === runId);
    if (run?.status === 'succeeded') return { rowCount: run.row_count, warning: run.warning ?? null };
    if (!run || run.status === 'failed') throw new Error(`Run failed: ${run?.error ?? 'unknown error'}`);
  }
}

/** Runs the instance now and waits for its rows, following the run when the server stops waiting. */
export async function refreshInstance(
  instanceId: string,
  followEveryMs = FOLLOW_EVERY_MS,
): Promise<RefreshOutcome> {
  const answer = await api<Schemas['RunFinished'] | Schemas['RunStarted']>(
    `connectors/run/${encodeURIComponent(instanceId)}`,
    { method: 'POST' },
  );
  if ('status' in answer) return followRun(instanceId, answer.run_id, followEveryMs);
  return { rowCount: answer.rowCount, warning: answer.warning ?? null };
}

/**
 * POST connectors/run/{id}: a run that answers when done, with the rows fetched (Manage's
 * Refresh); a run that outlasts the server's wait answers with its id and is followed until it ends.
 */
export function useRefreshInstance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (instanceId: string) => refreshInstance(instanceId),
    // A failed run is recorded too.
    onSettled: (_answer, _error, instanceId) =>
      Promise.all(
        [connectorKeys.mine(), connectorKeys.runs(instanceId), connectorKeys.tables()].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
}

/**
 * POST connectors/remove/{instanceId}. The instance, its runs and its table are gone, and the
 * catalogue's connect buttons and subscriber counts change: everything cached about connectors.
 */
export function useRemoveInstance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (instanceId: string) =>
      api<Schemas['MessageResponse']>(`connectors/remove/${encodeURIComponent(instanceId)}`, {
        method: 'POST',
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: connectorKeys.all }),
  });
}

/** POST connectors/upload -> {id, redirectUrl}; a 400 carries `errors` with the spec's problems. */
export function useUploadConnector() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UploadConnectorInput) =>
      api<Schemas['UploadedConnector']>('connectors/upload', { method: 'POST', body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: connectorKeys.lists() }),
  });
}

/**
 * POST connectors/test-read: the first pages of a spec, a connector or an instance, read without
 * writing anything (no table, no run, no state), so nothing cached changes.
 */
export function useTestRead() {
  return useMutation({
    mutationFn: (input: TestReadInput) =>
      api<TestReadResult>('connectors/test-read', { method: 'POST', body: input }),
  });
}

/** POST connectors/instance/{id}/state/reset: the next run reads from the start value again. */
export function useResetIncrementalState() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (instanceId: string) =>
      api<{ state: null }>(`connectors/instance/${encodeURIComponent(instanceId)}/state/reset`, {
        method: 'POST',
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: connectorKeys.mine() }),
  });
}

/** DELETE connectors/{id}: its uploader deletes a connector, with every instance of it. */
export function useDeleteConnector() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<{ message: string }>(`connectors/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: (_answer, id) => {
      queryClient.removeQueries({ queryKey: connectorKeys.detail(id) });
      return Promise.all(
        [connectorKeys.lists(), connectorKeys.mine()].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      );
    },
  });
}
