import { useMutation } from '@tanstack/react-query';
import { api } from './client';
import type { components } from './schema';

/** A locked account's way back: the token from the mailed link lets this browser sign in. */

type MessageAnswer = components['schemas']['MessageResponse'];

export function useUnlockLogin() {
  return useMutation({
    mutationFn: (token: string) =>
      api<MessageAnswer>('users/login/unlock', { method: 'POST', body: { token } }),
  });
}
