/** E-mail and password are required. */
export function canSubmitLogin(email: string, password: string): boolean {
  return email.trim() !== '' && password !== '';
}

/** After 'Login successful' the user goes to /manage, wherever they came from. */
export const PATH_AFTER_LOGIN = '/manage';
