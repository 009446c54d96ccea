import { QueryClient, QueryKey, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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

/** What a token's creation or revocation changes: the list, and an organisation's audit log. */
function refreshAfterChange(queryClient: QueryClient, organisationId?: string) {
  const keys: QueryKey[] = [tokenKeys.of(organisationId)];
  // Its log is kept under the organisation's key (api/audit.ts).
  if (organisationId) keys.push(['organisations', organisationId, 'audit']);
  return Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

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
    onSuccess: () => refreshAfterChange(queryClient, organisationId),
  });
}

export function useRevokeApiToken(organisationId?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<MessageAnswer>(`${tokensPath(organisationId)}/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSettled: () => refreshAfterChange(queryClient, organisationId),
  });
}
