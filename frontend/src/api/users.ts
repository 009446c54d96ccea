import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, errorText } from './client';

/** GET users/me and the login answer (pro_user and blog_editor as 0/1, spec §7). */
// A type alias (not an interface) so it fits the session's open SessionUser shape.
export type CurrentUser = {
  id: string;
  email: string;
  name: string;
  api_key: string | null;
  pro_user: 0 | 1;
  blog_editor: 0 | 1;
};

export interface LoginInput {
  email: string;
  password: string;
}

export interface RegisterInput {
  name: string;
  email: string;
  password: string;
}

export interface ChangePasswordInput {
  current_password: string;
  new_password: string;
}

interface MessageAnswer {
  message: string;
}

/**
 * The alert text for a failed call (spec §8): the server's message when it sent one, the
 * screen's fallback when it did not, and the network text when the request never got an answer.
 */
export function failureText(error: unknown, texts: { fallback: string; network: string }): string {
  if (error instanceof ApiError) return errorText(error.body) ?? texts.fallback;
  if (error instanceof TypeError) return texts.network;
  return texts.fallback;
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: LoginInput) => api<CurrentUser>('users/login', { method: 'POST', body: input }),
    // Whatever was loaded as a visitor (access, my connectors) belongs to someone else now.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

export function useRegister() {
  return useMutation({
    mutationFn: (input: RegisterInput) =>
      api<MessageAnswer>('users/register', { method: 'POST', body: input }),
  });
}

export function useVerifyEmail() {
  return useMutation({
    mutationFn: (token: string) => api<MessageAnswer>(`users/verify-email/${encodeURIComponent(token)}`),
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (input: ChangePasswordInput) =>
      api<MessageAnswer>('users/change-password', { method: 'POST', body: input }),
  });
}
