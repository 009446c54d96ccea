import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import type { components } from './schema';

/** An organisation's single sign-on settings (owners and admins), domain verification and SSO sign-in. */

export type SsoSettings = components['schemas']['SsoSettingsResponse'];
export type SsoDomain = components['schemas']['SsoDomainResponse'];
type SsoUpdate = components['schemas']['UpdateSsoDto'];
type MessageAnswer = components['schemas']['MessageResponse'];

const ssoKey = (id: string) => ['organisations', id, 'sso'] as const;
const path = (id: string, rest = '') => `organisations/${encodeURIComponent(id)}/sso${rest}`;

export function useSsoSettings(id: string, enabled: boolean) {
  return useQuery({ queryKey: ssoKey(id), queryFn: () => api<SsoSettings>(path(id)), enabled });
}

function useSsoMutation<Input, Answer>(id: string, run: (input: Input) => Promise<Answer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ssoKey(id) }),
  });
}

export function useUpdateSso(id: string) {
  return useSsoMutation(id, (input: SsoUpdate) =>
    api<SsoSettings>(path(id), { method: 'PATCH', body: input }),
  );
}

export function useAddSsoDomain(id: string) {
  return useSsoMutation(id, (input: { domain: string; email: string }) =>
    api<SsoDomain>(path(id, '/domains'), { method: 'POST', body: input }),
  );
}

export function useRemoveSsoDomain(id: string) {
  return useSsoMutation(id, (domainId: string) =>
    api<MessageAnswer>(path(id, `/domains/${encodeURIComponent(domainId)}`), { method: 'DELETE' }),
  );
}

export function useVerifySsoDomain() {
  return useMutation({
    mutationFn: (token: string) =>
      api<SsoDomain>('auth/sso/verify-domain', { method: 'POST', body: { token } }),
  });
}

/** Where single sign-on for this e-mail address starts (its organisation found by the verified domain). */
export function startSsoByEmail(email: string) {
  return api<{ authorization_url: string }>('auth/sso', { method: 'POST', body: { email } });
}
