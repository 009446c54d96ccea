import { useMutation, useQueryClient } from '@tanstack/react-query';
import { assetKeys, type AssetDetail } from './assets';
import { api } from './client';
import { connectorKeys } from './connectors';
import type { components } from './schema';

/**
 * Live datasets: a connection's table published as a dataset listing that its refreshes keep
 * fresh. Publishing and the owner's answers to a held schema change; unpublishing is deleting the
 * dataset (DELETE assets/{id}, useDeleteAsset), which for a live one tells its subscribers.
 */

type Schemas = components['schemas'];
export type LiveInfo = Schemas['LiveView'];
export type LiveRun = Schemas['LiveRunView'];
export type RunOutcome = LiveRun['outcome'];
export type SchemaChange = Schemas['PendingSchemaChangeView'];
export type PublishInput = Schemas['PublishProductDto'];
type Published = Schemas['PublishedProduct'];
type ProductAnswer = Schemas['ProductMessage'];

/** The live block of a dataset, or null for an uploaded one. */
export function liveOf(asset: AssetDetail): LiveInfo | null {
  return asset.live ?? null;
}

/**
 * POST connectors/instance/{id}/publish: the new listing joins the catalogue and the owner's
 * lists, and its table on the owner's connections links to it.
 */
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
        [assetKeys.lists(), assetKeys.categories(), [...assetKeys.all, 'facets'], connectorKeys.mine()].map(
          (queryKey) => queryClient.invalidateQueries({ queryKey }),
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
