import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  assetKeys,
  type AssetDetail,
  type AssetSummary,
  type DatasetArchived,
  type DatasetRemoved,
} from './assets';
import { api } from './client';
import { connectorKeys } from './connectors';

/**
 * Live data products: a connection's table published as a dataset listing that its refreshes keep
 * fresh. Publishing, the owner's answers to a held schema change, and unpublishing.
 */

export type RunOutcome = 'updated' | 'unchanged' | 'failed' | 'schema_change';

export interface LiveRun {
  finished_at: string;
  outcome: RunOutcome;
  /** Rows of the dataset after the run; for a failed run, the rows kept. */
  row_count: number;
  /** The owner's only: why the run failed. */
  error?: string | null;
}

export interface ColumnChange {
  name: string;
  type: string;
}

export interface RetypedColumn {
  name: string;
  from: string;
  to: string;
}

/** A run held back because it would drop or retype a published column. */
export interface SchemaChange {
  detected_at: string;
  added: ColumnChange[];
  dropped: ColumnChange[];
  retyped: RetypedColumn[];
}

export interface LiveInfo {
  /** 0: refreshed by hand only. */
  interval_minutes: number;
  last_refreshed_at: string | null;
  next_refresh_at: string | null;
  stale_since: string | null;
  grace_minutes: number;
  /** The last outcomes, newest first. */
  runs: LiveRun[];
  /** Columns added by refreshes since publishing. */
  new_columns: string[];
  /** The owner's only (absent for subscribers). */
  pending_schema_change?: SchemaChange | null;
  /** The owner's only: the connection feeding the listing. */
  instance_id?: string;
}

/** A dataset as the detail page reads it; uploaded datasets have no live block. */
export type LiveAssetDetail = AssetDetail & { live?: LiveInfo | null };

/** The live block of a dataset, or null for an uploaded one. */
export function liveOf(asset: AssetDetail): LiveInfo | null {
  return (asset as LiveAssetDetail).live ?? null;
}

/** A catalogue summary with the freshness a card shows. */
export type LiveAssetSummary = AssetSummary & {
  live?: boolean;
  data_updated_at?: string;
  stale_since?: string | null;
};

export interface PublishInput {
  /** The readable name of one of the connection's tables. */
  table: string;
  title: string;
  description?: string;
  category?: string;
  keywords?: string[];
  price?: string;
  licence?: string;
  image?: string;
  is_public?: boolean;
  dictionary?: Record<string, string>;
}

export interface Published {
  id: string;
  redirectUrl: string;
}

interface ProductAnswer {
  message: string;
  id: string;
}

/** POST connectors/instance/{id}/publish: the new listing joins the catalogue and the owner's lists. */
export function usePublishTable() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ instanceId, input }: { instanceId: string; input: PublishInput }) =>
      api<Published>(`connectors/instance/${encodeURIComponent(instanceId)}/publish`, {
        method: 'POST',
        body: input,
      }),
    onSuccess: () =>
      Promise.all(
        [assetKeys.lists(), assetKeys.categories(), [...assetKeys.all, 'facets']].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
}

/** POST products/{id}/schema-change/accept|dismiss: the held change goes in, or is forgotten. */
export function useSchemaChangeAnswer(assetId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (answer: 'accept' | 'dismiss') =>
      api<ProductAnswer>(`products/${encodeURIComponent(assetId)}/schema-change/${answer}`, {
        method: 'POST',
      }),
    onSettled: () =>
      Promise.all(
        [assetKeys.detail(assetId), assetKeys.data(assetId), assetKeys.lists()].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
}

/**
 * POST products/{id}/unpublish: deleted, or archived when others paid; the connection stays and
 * may be removed again.
 */
export function useUnpublish() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (assetId: string) =>
      api<DatasetRemoved | DatasetArchived>(`products/${encodeURIComponent(assetId)}/unpublish`, {
        method: 'POST',
      }),
    onSuccess: (_answer, assetId) => {
      queryClient.removeQueries({ queryKey: assetKeys.detail(assetId) });
      return Promise.all(
        [assetKeys.lists(), assetKeys.categories(), [...assetKeys.all, 'facets'], connectorKeys.mine()].map(
          (queryKey) => queryClient.invalidateQueries({ queryKey }),
        ),
      );
    },
  });
}
