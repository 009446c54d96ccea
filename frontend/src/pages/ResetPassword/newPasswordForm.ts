import { PASSWORD_MIN_LENGTH } from '../Account/passwordForm';

/** What keeps the new password from being sent, or null when it may be sent. */
export function newPasswordProblem(password: string, repeated: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH)
    return `The new password needs at least ${PASSWORD_MIN_LENGTH} characters`;
  if (repeated !== password) return 'The passwords do not match';
  return null;
}
