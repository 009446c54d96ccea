import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, apiWithHeaders } from './client';
import { connectorKeys } from './connectors';
import type { components } from './schema';
import { uploadPercent, uploadWithProgress } from './upload';

/** Datasets: the catalogue, one dataset, its rows, and CSV upload. */

export type AssetSummary = components['schemas']['AssetSummary'];
export type AssetDetail = components['schemas']['AssetDetail'];
export type AssetColumn = components['schemas']['AssetColumn'];
export type AssetData = components['schemas']['AssetData'];
export type UploadedDataset = components['schemas']['UploadedDataset'];
export type UpdateAsset = components['schemas']['UpdateAssetDto'];
export type DatasetRefreshed = components['schemas']['DatasetRefreshed'];
export type DatasetRemoved = components['schemas']['DatasetRemoved'];
export type DatasetArchived = components['schemas']['DatasetArchived'];
export type DatasetActivity = components['schemas']['DatasetActivity'];
export type ColumnProfile = components['schemas']['ColumnProfile'];
export type DatasetVersion = components['schemas']['DatasetVersionView'];
export type CategoryFacet = components['schemas']['CategoryFacet'];
export type UploadPreview = components['schemas']['UploadPreview'];
export type CatalogueSort = 'relevance' | 'newest' | 'updated' | 'price_asc' | 'price_desc' | 'subscribers';

export interface AssetPageParams {
  search: string;
  categories: string[];
  /** Left out: relevance with a search, newest without. */
  sort?: CatalogueSort;
  /** Only live datasets. */
  live?: boolean;
  limit: number;
  offset: number;
}

export interface AssetPage {
  items: AssetSummary[];
  total: number;
}

/** 'owned': the caller's uploads; 'accessible': every dataset the caller holds. */
export type AssetScope = 'owned' | 'accessible';

export interface RowsParams {
  limit: number;
  offset: number;
  sort?: string;
  /** Server-side row filters, `column:operator:value` each. */
  filters?: string[];
}

export const assetKeys = {
  all: ['assets'] as const,
  /** Every list of datasets (catalogue pages and the Manage lists): what access and uploads change. */
  lists: () => [...assetKeys.all, 'list'] as const,
  page: (params: AssetPageParams) => [...assetKeys.lists(), 'page', params] as const,
  scope: (scope: AssetScope) => [...assetKeys.lists(), 'scope', scope] as const,
  categories: () => [...assetKeys.all, 'categories'] as const,
  facets: (search: string, liveOnly: boolean) => [...assetKeys.all, 'facets', search, liveOnly] as const,
  activity: (id: string) => [...assetKeys.all, 'activity', id] as const,
  detail: (id: string) => [...assetKeys.all, 'detail', id] as const,
  /** Every page of one dataset's rows. */
  data: (id: string) => [...assetKeys.all, 'data', id] as const,
  dataPage: (id: string, params: RowsParams) => [...assetKeys.data(id), params] as const,
};

/** Query string of GET assets: server-side search, category and paging. */
export function assetListQuery(params: AssetPageParams): string {
  const query = new URLSearchParams();
  if (params.search.trim()) query.set('search', params.search.trim());
  for (const category of params.categories) query.append('category', category);
  if (params.sort) query.set('sort', params.sort);
  if (params.live) query.set('live', 'true');
  query.set('limit', String(Math.max(1, params.limit)));
  query.set('offset', String(params.offset));
  return query.toString();
}

async function fetchAssetPage(params: AssetPageParams, signal?: AbortSignal): Promise<AssetPage> {
  const { body, headers } = await apiWithHeaders<AssetSummary[]>(`assets?${assetListQuery(params)}`, {
    signal,
  });
  const items = Array.isArray(body) ? body : [];
  // The total of the whole search, for paging, comes in a header beside the page.
  const total = Number(headers.get('X-Total-Count') ?? items.length);
  return { items, total: Number.isFinite(total) ? total : items.length };
}

/** One page of the DataStore's datasets; the previous page stays shown while the next loads. */
export function useAssetPage(params: AssetPageParams, enabled = true) {
  return useQuery({
    queryKey: assetKeys.page(params),
    queryFn: ({ signal }) => fetchAssetPage(params, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}

// The Manage lists show every dataset of the user at once.
const MANAGE_LIMIT = 1000;

/** GET assets?scope=accessible|owned: the datasets the user holds, or uploaded. */
export function useMyAssets(scope: AssetScope, enabled: boolean) {
  return useQuery({
    queryKey: assetKeys.scope(scope),
    queryFn: () => api<AssetSummary[]>(`assets?scope=${scope}&limit=${MANAGE_LIMIT}`),
    enabled,
  });
}

/** Every category among the datasets the caller may see, whatever the current filter shows. */
export function useAssetCategories() {
  return useQuery({ queryKey: assetKeys.categories(), queryFn: () => api<string[]>('assets/categories') });
}

/** While the latest rows are being profiled, the page asks again now and then to show the figures. */
const PROFILE_POLL_MS = 3000;

export function useAssetDetail(id: string) {
  return useQuery({
    queryKey: assetKeys.detail(id),
    queryFn: () => api<AssetDetail>(`assets/${encodeURIComponent(id)}`),
    refetchInterval: (query) => (query.state.data?.profile_pending ? PROFILE_POLL_MS : false),
  });
}

/** GET assets/{id}/data: the sample without access, pages of the full set with it. */
export function useAssetRows(id: string, params: RowsParams) {
  const query = new URLSearchParams({ limit: String(params.limit), offset: String(params.offset) });
  if (params.sort) query.set('sort', params.sort);
  for (const filter of params.filters ?? []) query.append('filter', filter);
  return useQuery({
    queryKey: assetKeys.dataPage(id, params),
    queryFn: () => api<AssetData>(`assets/${encodeURIComponent(id)}/data?${query}`),
    placeholderData: keepPreviousData,
  });
}

/** POST assets/upload-csv with a progress percentage; the new dataset joins the lists and categories. */
export function useDatasetUpload() {
  const queryClient = useQueryClient();
  const [percent, setPercent] = useState(0);
  const mutation = useMutation({
    mutationFn: ({ fields, file }: { fields: Record<string, string>; file: File }) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      // The file goes last so the server has every text field before the bytes stream in.
      form.append('file', file);
      setPercent(0);
      return uploadWithProgress<UploadedDataset>('assets/upload-csv', form, (loaded, total) =>
        setPercent(uploadPercent(loaded, total)),
      );
    },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: assetKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: assetKeys.categories() }),
      ]),
  });
  return { ...mutation, percent };
}

/** Bytes of a file the upload preview sends: the server reads no more than this. */
export const PREVIEW_BYTES = 2 * 1024 * 1024;

/** POST assets/upload-preview with the file's first megabytes: what the upload would make of it; nothing is stored. */
export function useUploadPreview() {
  return useMutation({
    mutationFn: ({ fields, file }: { fields: Record<string, string>; file: File }) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      form.append('file', file.slice(0, PREVIEW_BYTES), file.name);
      return api<UploadPreview>('assets/upload-preview', { body: form });
    },
  });
}

/** GET assets/facets: each category with how many visible datasets match the search (and Live only). */
export function useCategoryFacets(search: string, liveOnly = false) {
  const query = new URLSearchParams();
  if (search.trim()) query.set('search', search.trim());
  if (liveOnly) query.set('live', 'true');
  return useQuery({
    queryKey: assetKeys.facets(search.trim(), liveOnly),
    queryFn: () => api<CategoryFacet[]>(`assets/facets?${query}`),
    placeholderData: keepPreviousData,
  });
}

/** What an owner's change of a dataset makes stale: its detail, and the lists that show it. */
function ownerChangeKeys(id: string) {
  return [assetKeys.detail(id), assetKeys.lists(), assetKeys.categories(), [...assetKeys.all, 'facets']];
}

/** PATCH assets/{id}: the owner changes the description (the dictionary too). */
export function useUpdateAsset(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: UpdateAsset) =>
      api<AssetDetail>(`assets/${encodeURIComponent(id)}`, { method: 'PATCH', body: changes }),
    onSuccess: (detail) => {
      queryClient.setQueryData(assetKeys.detail(id), detail);
      return Promise.all(ownerChangeKeys(id).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
  });
}

/** POST assets/{id}/move: the owner's personal dataset becomes an organisation's (editor and above of it). */
export function useMoveAsset(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (organisationId: string) =>
      api<unknown>(`assets/${encodeURIComponent(id)}/move`, {
        method: 'POST',
        body: { organisation_id: organisationId },
      }),
    onSuccess: () =>
      Promise.all(ownerChangeKeys(id).map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

/** POST assets/{id}/refresh: a new CSV replaces the rows or is appended, with upload progress. */
export function useRefreshAsset(id: string) {
  const queryClient = useQueryClient();
  const [percent, setPercent] = useState(0);
  const mutation = useMutation({
    mutationFn: ({ mode, file }: { mode: 'replace' | 'append'; file: File }) => {
      const form = new FormData();
      form.append('mode', mode);
      form.append('file', file);
      setPercent(0);
      return uploadWithProgress<DatasetRefreshed>(
        `assets/${encodeURIComponent(id)}/refresh`,
        form,
        (loaded, total) => setPercent(uploadPercent(loaded, total)),
      );
    },
    onSuccess: () =>
      Promise.all(
        [...ownerChangeKeys(id), assetKeys.data(id)].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
  return { ...mutation, percent };
}

/** DELETE assets/{id}: the dataset leaves every list. */
export function useDeleteAsset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<DatasetRemoved | DatasetArchived>(`assets/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: (_answer, id) => {
      queryClient.removeQueries({ queryKey: assetKeys.detail(id) });
      // A live dataset unpublished: its table on the owner's connections may be published again.
      return Promise.all(
        [assetKeys.lists(), assetKeys.categories(), [...assetKeys.all, 'facets'], connectorKeys.mine()].map(
          (queryKey) => queryClient.invalidateQueries({ queryKey }),
        ),
      );
    },
  });
}

/** GET assets/{id}/activity: the owner's 90 days of use. */
export function useAssetActivity(id: string, enabled: boolean) {
  return useQuery({
    queryKey: assetKeys.activity(id),
    queryFn: () => api<DatasetActivity>(`assets/${encodeURIComponent(id)}/activity`),
    enabled,
  });
}
