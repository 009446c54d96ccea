import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { accessKeys } from './access';
import { assetKeys } from './assets';
import { api } from './client';
import type { components } from './schema';

/** The buyer's subscriptions to datasets with a recurring price. */

export type SubscriptionView = components['schemas']['SubscriptionView'];

export const subscriptionKeys = {
  all: ['subscriptions'] as const,
};

/** GET subscriptions: the caller's subscriptions, newest first. */
export function useSubscriptions(enabled: boolean) {
  return useQuery({
    queryKey: subscriptionKeys.all,
    queryFn: () => api<SubscriptionView[]>('subscriptions'),
    enabled,
  });
}

/** POST subscriptions/{id}/cancel: ends it at the period's end; access lasts until then. */
export function useCancelSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<SubscriptionView>(`subscriptions/${encodeURIComponent(id)}/cancel`, { method: 'POST' }),
    onSuccess: () =>
      Promise.all(
        [subscriptionKeys.all, accessKeys.purchases(), assetKeys.lists()].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
}
