import { useMutation } from '@tanstack/react-query';
import { api } from './client';
import type { components } from './schema';

/** Forgot password: ask for a link by e-mail, then set a new password with its token. */

type MessageAnswer = components['schemas']['MessageResponse'];
type ResetInput = components['schemas']['ResetPasswordDto'];

export function useForgotPassword() {
  return useMutation({
    mutationFn: (email: string) =>
      api<MessageAnswer>('users/forgot-password', { method: 'POST', body: { email } }),
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (input: ResetInput) =>
      api<MessageAnswer>('users/reset-password', { method: 'POST', body: input }),
  });
}
