import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { AssetSummary, ConnectorSummary } from '../datastore/catalogTypes';

const MANAGE_LIMIT = 1000;

/** GET assets?scope=accessible|owned: the datasets the user holds, or uploaded. */
export function useMyAssets(scope: 'accessible' | 'owned', enabled: boolean) {
  return useQuery({
    queryKey: ['assets', 'scope', scope],
    queryFn: () => api<AssetSummary[]>(`assets?scope=${scope}&limit=${MANAGE_LIMIT}`),
    enabled,
  });
}

export function useConnectorCatalogue(enabled: boolean) {
  return useQuery({
    queryKey: ['connectors', 'list'],
    queryFn: () => api<ConnectorSummary[]>('connectors'),
    enabled,
  });
}

type RefreshAnswer = { rowCount: number; run_id: string } | { run_id: string; status: 'running' };
interface RunRecord {
  id: string;
  status: 'running' | 'succeeded' | 'failed';
  row_count: number;
  error: string | null;
}
const FOLLOW_EVERY_MS = 2000;

/** Polls the run history until the run has ended: its rows, or its error like a failed refresh. */
async function followRun(instanceId: string, runId: string): Promise<{ rowCount: number }> {
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_EVERY_MS));
    const runs = await api<RunRecord[]>(`connectors/instance/${instanceId}/runs`);
    const run = runs.find((candidate) => candidate.id === runId);
    if (run && run.status === 'succeeded') return { rowCount: run.row_count };
    if (!run || run.status === 'failed') throw new Error(`Run failed: ${run?.error ?? 'unknown error'}`);
  }
}

/**
 * POST connectors/run/{id}: a run that answers when done, with the rows fetched; a run that
 * outlasts the server's wait answers with its id and is followed until it ends.
 */
export function useRefreshInstance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (instanceId: string) => {
      const answer = await api<RefreshAnswer>(`connectors/run/${instanceId}`, { method: 'POST' });
      return 'status' in answer ? followRun(instanceId, answer.run_id) : answer;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['connectors'] }),
  });
}

/** POST dev/apikey {email} -> {api_key}. */
export function useGenerateApiKey() {
  return useMutation({
    mutationFn: (email: string) =>
      api<{ api_key: string }>('dev/apikey', { method: 'POST', body: { email } }),
  });
}
