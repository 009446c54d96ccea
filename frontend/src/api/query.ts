import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { parseQueryAnswer } from '../features/query/queryAnswer';
import { ApiError, api, errorText, parseBody } from './client';
import type { components } from './schema';

/** User SQL: the caller's tables, runs, downloads of a whole result, the history and saved queries. */

export type QueryTable = components['schemas']['QueryTableResponse'];
export type QueryHistoryEntry = components['schemas']['QueryHistoryEntryResponse'];
export type SavedQuery = components['schemas']['SavedQueryResponse'];
export type SaveQueryInput = components['schemas']['SaveQueryDto'];
type MessageAnswer = components['schemas']['MessageResponse'];

/** POST query as JSON: the answer is streamed by the server, so it is not in the OpenAPI types. */
export interface QueryResult {
  columns: Array<{ name: string; type: string }>;
  rows: unknown[][];
  row_count: number;
  truncated: boolean;
  elapsed_ms: number;
  /** Set when the query failed after its first rows were sent. */
  error?: string;
}

export type DownloadFormat = 'csv' | 'json' | 'parquet' | 'xlsx';

const DOWNLOAD_TYPES: Record<DownloadFormat, string> = {
  csv: 'text/csv',
  json: 'application/json',
  parquet: 'application/vnd.apache.parquet',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export const queryKeys = {
  all: ['query'] as const,
  tables: () => [...queryKeys.all, 'tables'] as const,
  history: () => [...queryKeys.all, 'history'] as const,
  saved: () => [...queryKeys.all, 'saved'] as const,
};

export function useQueryTables() {
  return useQuery({ queryKey: queryKeys.tables(), queryFn: () => api<QueryTable[]>('query/tables') });
}

export function useQueryHistory() {
  return useQuery({
    queryKey: queryKeys.history(),
    queryFn: () => api<QueryHistoryEntry[]>('query/history'),
    // The server writes a run's line as the run ends, which may be after the screen let go of it (Cancel).
    refetchOnMount: 'always',
  });
}

export function useSavedQueries() {
  return useQuery({ queryKey: queryKeys.saved(), queryFn: () => api<SavedQuery[]>('query/saved') });
}

/** Runs SQL for the screen; aborting `signal` cancels the statement in the database too. */
export function useRunQuery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ sql, limit, signal }: { sql: string; limit: number; signal: AbortSignal }) =>
      runQuery(sql, limit, signal),
    // The server records every run, cancelled or failed ones too.
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.history() }),
  });
}

/** POST query for the screen, read without losing the digits of big numbers. */
async function runQuery(sql: string, limit: number, signal: AbortSignal): Promise<QueryResult> {
  const response = await postQuery({ sql, limit }, 'application/json', signal);
  return parseQueryAnswer<QueryResult>(await response.text());
}

/** POST query with the session; a refusal becomes an ApiError with the server's text and body. */
async function postQuery(body: object, accept: string, signal?: AbortSignal): Promise<Response> {
  const response = await fetch('/api/query', {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': 'application/json', Accept: accept },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok) {
    const answer = parseBody(await response.text());
    throw new ApiError(response.status, errorText(answer) ?? response.statusText, answer);
  }
  return response;
}

export function useClearHistory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<MessageAnswer>('query/history', { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.history() }),
  });
}

export function useSaveQuery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SaveQueryInput) => api<SavedQuery>('query/saved', { body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.saved() }),
  });
}

export function useUpdateSavedQuery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: Partial<SaveQueryInput> & { id: string }) =>
      api<SavedQuery>(`query/saved/${encodeURIComponent(id)}`, { method: 'PATCH', body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.saved() }),
  });
}

export function useDeleteSavedQuery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<MessageAnswer>(`query/saved/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.saved() }),
  });
}

/**
 * The whole result (up to the server's cap, not the screen's) as a file: fetched with the session
 * and saved from a blob, since a plain link cannot POST the SQL.
 */
export async function downloadQueryResult(sql: string, format: DownloadFormat): Promise<void> {
  const response = await fetch('/api/query', {
    method: 'POST',
    credentials: 'include',
    headers: {
      'Content-Type': 'application/json',
      Accept: DOWNLOAD_TYPES[format],
    },
    body: JSON.stringify({ sql, format }),
  });
  if (!response.ok) {
    const body = parseBody(await response.text());
    throw new ApiError(response.status, errorText(body) ?? response.statusText, body);
  }
  const blob = await response.blob();
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = `query.${format}`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The click has handed the blob to the download; the address is not needed after it.
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}
