import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import type { components } from './schema';

/** Two-factor sign-in on /account: status, setup (QR code and secret), confirm, turn off. */

export type TwoFactorStatus = components['schemas']['TwoFactorStatusResponse'];
export type TwoFactorSetup = components['schemas']['TwoFactorSetupResponse'];
type RecoveryCodes = components['schemas']['RecoveryCodesResponse'];
type DisableInput = components['schemas']['DisableTwoFactorDto'];
type MessageAnswer = components['schemas']['MessageResponse'];

export const twoFactorKeys = {
  all: ['two-factor'] as const,
  status: () => [...twoFactorKeys.all, 'status'] as const,
};

export function useTwoFactorStatus() {
  return useQuery({
    queryKey: twoFactorKeys.status(),
    queryFn: () => api<TwoFactorStatus>('users/two-factor'),
  });
}

/** A new secret; two-factor sign-in is on only once useEnableTwoFactor confirms a first code. */
export function useTwoFactorSetup() {
  return useMutation({
    mutationFn: () => api<TwoFactorSetup>('users/two-factor/setup', { method: 'POST' }),
  });
}

export function useEnableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) =>
      api<RecoveryCodes>('users/two-factor/enable', { method: 'POST', body: { code } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorKeys.all }),
  });
}

export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: DisableInput) =>
      api<MessageAnswer>('users/two-factor/disable', { method: 'POST', body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorKeys.all }),
  });
}
