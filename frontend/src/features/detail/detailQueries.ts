import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { AssetDetail, AssetRows, ConnectorDetail, InstanceDetail } from './detailTypes';

export function useAssetDetail(id: string) {
  return useQuery({ queryKey: ['assets', 'detail', id], queryFn: () => api<AssetDetail>(`assets/${id}`) });
}

export interface RowsParams {
  limit: number;
  offset: number;
  sort?: string;
}

/** GET assets/{id}/data: the sample without access, pages of the full set with it. */
export function useAssetRows(id: string, params: RowsParams, enabled = true) {
  const query = new URLSearchParams({ limit: String(params.limit), offset: String(params.offset) });
  if (params.sort) query.set('sort', params.sort);
  return useQuery({
    queryKey: ['assets', 'rows', id, params],
    queryFn: () => api<AssetRows>(`assets/${id}/data?${query}`),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useConnectorDetail(id: string, enabled = true) {
  return useQuery({
    queryKey: ['connectors', 'detail', id],
    queryFn: () => api<ConnectorDetail>(`connectors/${id}`),
    enabled,
  });
}

export function useMyInstances(enabled: boolean) {
  return useQuery({
    queryKey: ['connectors', 'my'],
    queryFn: () => api<InstanceDetail[]>('connectors/my'),
    enabled,
  });
}

/** POST connectors/remove/{instanceId}; everything reloads afterwards. */
export function useRemoveInstance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (instanceId: string) => api(`connectors/remove/${instanceId}`, { method: 'POST' }),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
