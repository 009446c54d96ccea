import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, apiWithHeaders } from './client';
import type { components } from './schema';
import { uploadPercent, uploadWithProgress } from './upload';

/** Datasets: the catalogue, one dataset, its rows, and CSV upload. */

export type AssetSummary = components['schemas']['AssetSummary'];
export type AssetDetail = components['schemas']['AssetDetail'];
export type AssetColumn = components['schemas']['AssetColumn'];
export type AssetData = components['schemas']['AssetData'];
export type UploadedDataset = components['schemas']['UploadedDataset'];

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

/** 'owned': the caller's uploads; 'accessible': every dataset the caller holds. */
export type AssetScope = 'owned' | 'accessible';

export interface RowsParams {
  limit: number;
  offset: number;
  sort?: string;
}

export const assetKeys = {
  all: ['assets'] as const,
  /** Every list of datasets (catalogue pages and the Manage lists): what access and uploads change. */
  lists: () => [...assetKeys.all, 'list'] as const,
  page: (params: AssetPageParams) => [...assetKeys.lists(), 'page', params] as const,
  scope: (scope: AssetScope) => [...assetKeys.lists(), 'scope', scope] as const,
  categories: () => [...assetKeys.all, 'categories'] as const,
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
export function useAssetPage(params: AssetPageParams) {
  return useQuery({
    queryKey: assetKeys.page(params),
    queryFn: ({ signal }) => fetchAssetPage(params, signal),
    placeholderData: keepPreviousData,
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

export function useAssetDetail(id: string) {
  return useQuery({
    queryKey: assetKeys.detail(id),
    queryFn: () => api<AssetDetail>(`assets/${encodeURIComponent(id)}`),
  });
}

/** GET assets/{id}/data: the sample without access, pages of the full set with it. */
export function useAssetRows(id: string, params: RowsParams) {
  const query = new URLSearchParams({ limit: String(params.limit), offset: String(params.offset) });
  if (params.sort) query.set('sort', params.sort);
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
