import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { hasRunningRun, RunSummary } from './runs';

const POLL_MS = 2000;

/** GET connectors/instance/{id}/runs, polled while a run is going or right after one was triggered. */
export function useInstanceRuns(instanceId: string | undefined, watchUntil: number) {
  return useQuery({
    queryKey: ['connectors', 'runs', instanceId],
    queryFn: () => api<RunSummary[]>(`connectors/instance/${instanceId}/runs`),
    enabled: !!instanceId,
    refetchInterval: (query) =>
      hasRunningRun(query.state.data) || Date.now() < watchUntil ? POLL_MS : false,
  });
}

export interface TableRows {
  columns?: Array<{ name: string; type?: string } | string>;
  rows: Array<Record<string, unknown>>;
}

/** GET assets/table/{output_table_name}: the latest 100 rows a connector fetched. */
export function useTableRows(tableName: string | undefined) {
  return useQuery({
    queryKey: ['assets', 'table', tableName],
    queryFn: async () => {
      const answer = await api<TableRows | Array<Record<string, unknown>>>(`assets/table/${tableName}`);
      return Array.isArray(answer) ? { rows: answer } : answer;
    },
    enabled: !!tableName,
  });
}

export interface InstanceUpdate {
  refresh_interval: number;
  settings: Record<string, unknown>;
  iterations: string[];
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body_template?: string | null;
  /** The spec operation (stream) to run; '' = the first. */
  operation_id?: string;
  auth_data?: Record<string, unknown>;
}

export function useUpdateInstance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, update }: { id: string; update: InstanceUpdate }) =>
      api(`connectors/instance/${id}`, { method: 'PATCH', body: update }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['connectors'] }),
  });
}

/** POST connectors/instance/{id}/run: starts a run in the background and answers at once. */
export function useTriggerRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, settings }: { id: string; settings: Record<string, unknown> }) =>
      api(`connectors/instance/${id}/run`, { method: 'POST', body: { settings } }),
    onSuccess: (_answer, { id }) => queryClient.invalidateQueries({ queryKey: ['connectors', 'runs', id] }),
  });
}
