import { failureText } from '../../api/users';

export interface VerifyOutcome {
  text: string;
  severity: 'success' | 'error';
  /** Where to go next; null keeps the visitor here to try again (network failure). */
  next: '/login' | '/register' | null;
}

export const VERIFIED_TEXT = '✅ Email verified!';

/** Verified -> /login; refused -> the message or 'Verification failed' -> /register. */
export function verifyOutcome(error: unknown | null): VerifyOutcome {
  if (error === null) return { text: VERIFIED_TEXT, severity: 'success', next: '/login' };
  const text = failureText(error, { fallback: 'Verification failed', network: 'Error verifying' });
  return { text, severity: 'error', next: error instanceof TypeError ? null : '/register' };
}
