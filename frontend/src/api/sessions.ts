import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import type { components } from './schema';

/** The Sessions list on /account: where the user is logged in, and signing those out. */

export type ActiveSession = components['schemas']['SessionResponse'];
type MessageAnswer = components['schemas']['MessageResponse'];

export const sessionKeys = {
  all: ['sessions'] as const,
};

export function useSessions() {
  return useQuery({ queryKey: sessionKeys.all, queryFn: () => api<ActiveSession[]>('users/sessions') });
}

export function useSignOutSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<MessageAnswer>(`users/sessions/${encodeURIComponent(id)}/sign-out`, { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}

export function useSignOutOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<MessageAnswer>('users/sessions/sign-out-others', { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}
