import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, errorText } from '../../api/client';
import type { AssetSummary, ConnectorSummary } from './catalogTypes';

export interface AssetPageParams {
  search: string;
  categories: string[];
  limit: number;
  offset: number;
}

export interface AssetPage {
  items: AssetSummary[];
  total: number;
}

/** Query string of GET assets: server-side search, category and paging. */
export function assetListQuery(params: AssetPageParams): string {
  const query = new URLSearchParams();
  if (params.search.trim()) query.set('search', params.search.trim());
  for (const category of params.categories) query.append('category', category);
  query.set('limit', String(Math.max(1, params.limit)));
  query.set('offset', String(params.offset));
  return query.toString();
}

// The total lives in the X-Total-Count header, which the JSON helper does not expose.
async function fetchAssetPage(params: AssetPageParams, signal?: AbortSignal): Promise<AssetPage> {
  const response = await fetch(`/api/assets?${assetListQuery(params)}`, {
    credentials: 'include',
    headers: { Accept: 'application/json' },
    signal,
  });
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) throw new ApiError(response.status, errorText(body) ?? response.statusText, body);
  const items = Array.isArray(body) ? (body as AssetSummary[]) : [];
  const total = Number(response.headers.get('X-Total-Count') ?? items.length);
  return { items, total: Number.isFinite(total) ? total : items.length };
}

export function useAssetPage(params: AssetPageParams) {
  return useQuery({
    queryKey: ['assets', 'page', params],
    queryFn: ({ signal }) => fetchAssetPage(params, signal),
    placeholderData: keepPreviousData,
  });
}

/** Every category among the datasets the caller may see, whatever the current filter shows. */
export function useAssetCategories() {
  return useQuery({ queryKey: ['assets', 'categories'], queryFn: () => api<string[]>('assets/categories') });
}

export function useConnectorList() {
  return useQuery({ queryKey: ['connectors', 'list'], queryFn: () => api<ConnectorSummary[]>('connectors') });
}

/** Grant or remove access; afterwards every query reloads, as the spec reloads the page. */
export function useAccessChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ assetId, grant }: { assetId: string; grant: boolean }) =>
      api(grant ? 'access/grant' : 'access/remove', { method: 'POST', body: { assetId } }),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

/** GET access/payments: which provider checks out paid datasets, and whether that is test mode. */
export function usePaymentMode() {
  return useQuery({
    queryKey: ['access', 'payments'],
    queryFn: () => api<{ provider: string; test_mode: boolean }>('access/payments'),
    staleTime: Infinity,
  });
}
