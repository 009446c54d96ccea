export interface PasswordForm {
  current: string;
  next: string;
  confirmation: string;
}

export const EMPTY_PASSWORD_FORM: PasswordForm = { current: '', next: '', confirmation: '' };

/** Same rule as registration (the server checks it too). */
export const PASSWORD_MIN_LENGTH = 8;

/** The first thing keeping the Change Password dialog from being sent, or null when it may be sent. */
export function passwordFormProblem(form: PasswordForm): string | null {
  if (form.current === '') return 'Enter your current password';
  if (form.next.length < PASSWORD_MIN_LENGTH)
    return `The new password needs at least ${PASSWORD_MIN_LENGTH} characters`;
  if (form.next === form.current) return 'The new password must differ from the current one';
  if (form.confirmation !== form.next) return 'The passwords do not match';
  return null;
}
