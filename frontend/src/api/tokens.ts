import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import type { components } from './schema';

/**
 * Named API tokens: the caller's own, or (given an organisation's id) that organisation's, which
 * act as the organisation; listed, created (the token shown once) and revoked.
 */

export type ApiToken = components['schemas']['ApiTokenResponse'];
export type CreatedApiToken = components['schemas']['CreatedApiTokenResponse'];
export type CreateApiTokenInput = components['schemas']['CreateApiTokenDto'];
type MessageAnswer = components['schemas']['MessageResponse'];

export const tokenKeys = {
  all: ['tokens'] as const,
  of: (organisationId?: string) => ['tokens', organisationId ?? 'mine'] as const,
};

const tokensPath = (organisationId?: string) =>
  organisationId ? `organisations/${encodeURIComponent(organisationId)}/tokens` : 'users/tokens';

export function useApiTokens(organisationId?: string) {
  return useQuery({
    queryKey: tokenKeys.of(organisationId),
    queryFn: () => api<ApiToken[]>(tokensPath(organisationId)),
  });
}

export function useCreateApiToken(organisationId?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateApiTokenInput) =>
      api<CreatedApiToken>(tokensPath(organisationId), { method: 'POST', body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokenKeys.of(organisationId) }),
  });
}

export function useRevokeApiToken(organisationId?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<MessageAnswer>(`${tokensPath(organisationId)}/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: tokenKeys.of(organisationId) }),
  });
}
