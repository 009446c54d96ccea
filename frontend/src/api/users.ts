import { QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { assetKeys } from './assets';
import { api, ApiError, errorText } from './client';
import { connectorKeys } from './connectors';
import type { components } from './schema';

/** The session (who is signed in), registration, login and logout, the password and the API key. */

export type CurrentUser = components['schemas']['MeResponse'];
export type LoginInput = components['schemas']['LoginDto'];
export type RegisterInput = components['schemas']['RegisterDto'];
export type ChangePasswordInput = components['schemas']['ChangePasswordDto'];
type MessageAnswer = components['schemas']['MessageResponse'];
export type TwoFactorRequired = components['schemas']['TwoFactorRequiredResponse'];
type LoginCodeInput = components['schemas']['TwoFactorLoginDto'];
type ApiKeyAnswer = components['schemas']['ApiKeyResponse'];
type SessionState = components['schemas']['SessionStateResponse'];

export const userKeys = {
  all: ['users'] as const,
  me: () => [...userKeys.all, 'me'] as const,
};

/**
 * The alert text for a failed call: the server's message when it sent one, the screen's fallback
 * when it did not, and the network text when the request never got an answer.
 */
export function failureText(error: unknown, texts: { fallback: string; network: string }): string {
  if (error instanceof ApiError) return errorText(error.body) ?? texts.fallback;
  if (error instanceof TypeError) return texts.network;
  return texts.fallback;
}

/**
 * GET users/session: the signed-in user, or null for a visitor. It answers 200 either way, so a
 * visitor's page logs no failed request (users/me keeps its 401 for API clients).
 */
async function fetchCurrentUser(): Promise<CurrentUser | null> {
  try {
    return (await api<SessionState>('users/session')).user;
  } catch (error) {
    // A failed check leaves the visitor logged out rather than stuck.
    console.warn('Session check failed', error instanceof Error ? error.message : error);
    return null;
  }
}

/**
 * The signed-in user (null for a visitor), asked once when the app starts; login, logout and a
 * new API key update it, nothing refetches it in the background.
 */
export function useCurrentUser() {
  return useQuery({ queryKey: userKeys.me(), queryFn: fetchCurrentUser, staleTime: Infinity });
}

/** What a visitor and each user see differently: the catalogue's personal flags and private items, instances. */
function invalidatePersonalData(queryClient: QueryClient) {
  return Promise.all(
    [assetKeys.all, connectorKeys.all].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}

/** With two-factor sign-in on, the right password answers that a code is needed (not yet logged in). */
export function isTwoFactorRequired(answer: CurrentUser | TwoFactorRequired): answer is TwoFactorRequired {
  return 'two_factor_required' in answer && answer.two_factor_required === true;
}

/** The user is now signed in: whatever was loaded as a visitor belongs to someone else now. */
function signedIn(queryClient: QueryClient, user: CurrentUser) {
  queryClient.setQueryData(userKeys.me(), user);
  return invalidatePersonalData(queryClient);
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: LoginInput) =>
      api<CurrentUser | TwoFactorRequired>('users/login', { method: 'POST', body: input }),
    onSuccess: (answer) => (isTwoFactorRequired(answer) ? undefined : signedIn(queryClient, answer)),
  });
}

/** The code step of a login: a code from the authenticator app or a recovery code. */
export function useLoginCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: LoginCodeInput) =>
      api<CurrentUser>('users/login/two-factor', { method: 'POST', body: input }),
    onSuccess: (user) => signedIn(queryClient, user),
  });
}

/**
 * POST users/logout; afterwards the server is asked again who is signed in (nobody, unless it
 * failed), and what was loaded for the user is loaded again, so nothing of theirs stays on screen.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<MessageAnswer>('users/logout', { method: 'POST' }),
    onSettled: () =>
      Promise.all([
        queryClient.refetchQueries({ queryKey: userKeys.me() }),
        invalidatePersonalData(queryClient),
      ]),
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
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ChangePasswordInput) =>
      api<MessageAnswer>('users/change-password', { method: 'POST', body: input }),
    // A replaced API key shows at once in Manage's links.
    onSuccess: (_answer, input) =>
      input.rotate_api_key ? queryClient.invalidateQueries({ queryKey: userKeys.me() }) : undefined,
  });
}

/** POST dev/apikey {email}: a new personal API key for the stream links; the old one stops working. */
export function useGenerateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) =>
      api<ApiKeyAnswer>('dev/apikey', {
        method: 'POST',
        body: { email } satisfies components['schemas']['GenerateApiKeyDto'],
      }),
    // The key is part of the signed-in user; the caller's notice need not wait for the reload.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: userKeys.me() });
    },
  });
}
