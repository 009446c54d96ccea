import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import type { components } from './schema';

/** Leaving: one's data to take along (a plain download link) and the account deleted. */

export type AccountDeleted = components['schemas']['AccountDeleted'];

/** GET users/me/export: the caller's data as a JSON file, downloaded through the session. */
export const ACCOUNT_EXPORT_URL = '/api/users/me/export';

/** DELETE users/me {password}; afterwards nothing loaded for the user stays in the cache. */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (password: string) =>
      api<AccountDeleted>('users/me', {
        method: 'DELETE',
        body: { password } satisfies components['schemas']['DeleteAccountDto'],
      }),
    onSuccess: () => queryClient.resetQueries(),
  });
}
