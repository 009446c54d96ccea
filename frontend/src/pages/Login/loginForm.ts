/** E-mail and password are required. */
export function canSubmitLogin(email: string, password: string): boolean {
  return email.trim() !== '' && password !== '';
}

/** The code step's body, or null while nothing usable is typed (spaces inside a code do not count). */
export function loginCodeInput(
  typed: string,
  isRecoveryCode: boolean,
): { code: string } | { recovery_code: string } | null {
  const text = typed.trim();
  if (isRecoveryCode) return text.length > 0 ? { recovery_code: text } : null;
  const digits = text.replace(/\s/g, '');
  return /^\d{6}$/.test(digits) ? { code: digits } : null;
}
