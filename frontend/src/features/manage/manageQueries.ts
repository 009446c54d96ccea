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

/** POST connectors/run/{id}: a run that answers when done, with the rows fetched. */
export function useRefreshInstance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (instanceId: string) =>
      api<{ rowCount: number }>(`connectors/run/${instanceId}`, { method: 'POST' }),
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
