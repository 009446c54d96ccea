import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import type { components } from './schema';

/** The caller's named API tokens: listed, created (the token shown once) and revoked. */

export type ApiToken = components['schemas']['ApiTokenResponse'];
export type CreatedApiToken = components['schemas']['CreatedApiTokenResponse'];
export type CreateApiTokenInput = components['schemas']['CreateApiTokenDto'];
type MessageAnswer = components['schemas']['MessageResponse'];

export const tokenKeys = {
  all: ['tokens'] as const,
};

export function useApiTokens() {
  return useQuery({ queryKey: tokenKeys.all, queryFn: () => api<ApiToken[]>('users/tokens') });
}

export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateApiTokenInput) =>
      api<CreatedApiToken>('users/tokens', { method: 'POST', body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokenKeys.all }),
  });
}

export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<MessageAnswer>(`users/tokens/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: tokenKeys.all }),
  });
}
