import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { assetKeys } from './assets';
import { api } from './client';
import { noticeKeys } from './notifications';
import type { components } from './schema';

/** Access to datasets: Get, Buy and Remove, and how paid datasets are checked out. */

export type GrantResult = components['schemas']['GrantResult'];
export type RemoveResult = components['schemas']['RemoveResult'];
export type PaymentMode = components['schemas']['PaymentMode'];
export type AccountPurchases = components['schemas']['AccountPurchases'];

export const accessKeys = {
  all: ['access'] as const,
  payments: () => [...accessKeys.all, 'payments'] as const,
  purchases: () => [...accessKeys.all, 'purchases'] as const,
};

/**
 * POST access/grant or access/remove. Afterwards the dataset's details and rows reload (full data
 * or the sample), and so do the lists that show its button, tags and subscriber count.
 */
export function useAccessChange() {
  const queryClient = useQueryClient();
  return useMutation({
    // With an organisation's id, for that organisation (the caller an editor and above of it).
    mutationFn: ({
      assetId,
      grant,
      organisationId,
    }: {
      assetId: string;
      grant: boolean;
      organisationId?: string;
    }) =>
      api<GrantResult | RemoveResult>(grant ? 'access/grant' : 'access/remove', {
        method: 'POST',
        body: {
          assetId,
          ...(organisationId ? { organisationId } : {}),
        } satisfies components['schemas']['GrantDto'],
      }),
    onSuccess: (_answer, { assetId }) =>
      Promise.all(
        [
          assetKeys.detail(assetId),
          assetKeys.data(assetId),
          assetKeys.lists(),
          // A private dataset's category is listed only while the caller may see the dataset.
          assetKeys.categories(),
          accessKeys.purchases(),
          // A purchase writes a receipt.
          noticeKeys.all,
        ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ),
  });
}

/** GET access/payments: which provider checks out paid datasets, and whether that is test mode. */
export function usePaymentMode() {
  return useQuery({
    queryKey: accessKeys.payments(),
    queryFn: () => api<PaymentMode>('access/payments'),
    staleTime: Infinity,
  });
}

/** GET access/purchases: what the user holds (with the order behind it) and every order. */
export function usePurchases(enabled: boolean) {
  return useQuery({
    queryKey: accessKeys.purchases(),
    queryFn: () => api<AccountPurchases>('access/purchases'),
    enabled,
  });
}
