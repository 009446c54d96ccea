/** Spec §5: e-mail and password are required. */
export function canSubmitLogin(email: string, password: string): boolean {
  return email.trim() !== '' && password !== '';
}

/**
 * After 'Login successful' the spec goes to /manage; a visitor whom a guarded page sent here goes
 * back to that page instead. Only in-app paths are followed.
 */
export function pathAfterLogin(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  if (
    typeof from === 'string' &&
    from.startsWith('/') &&
    !from.startsWith('//') &&
    !from.startsWith('/login')
  ) {
    return from;
  }
  return '/manage';
}
