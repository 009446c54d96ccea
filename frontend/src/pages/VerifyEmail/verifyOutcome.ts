import { failureText } from '../../api/users';

export interface VerifyOutcome {
  text: string;
  severity: 'success' | 'error';
  /** Where to go next; null keeps the visitor here to try again (network failure). */
  next: '/login' | '/register' | '/manage' | null;
}

export const VERIFIED_TEXT = '✅ Email verified!';
export const ALREADY_VERIFIED_TEXT = 'Your email is already verified.';

/**
 * Verified -> /login; refused -> the message or 'Verification failed' -> /register. Someone
 * logged in is verified already (a used link, opened again): they go on to /manage instead.
 */
export function verifyOutcome(error: unknown | null, loggedIn = false): VerifyOutcome {
  if (error === null)
    return { text: VERIFIED_TEXT, severity: 'success', next: loggedIn ? '/manage' : '/login' };
  if (loggedIn && !(error instanceof TypeError))
    return { text: ALREADY_VERIFIED_TEXT, severity: 'success', next: '/manage' };
  const text = failureText(error, { fallback: 'Verification failed', network: 'Error verifying' });
  return { text, severity: 'error', next: error instanceof TypeError ? null : '/register' };
}
