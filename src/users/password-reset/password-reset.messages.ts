/** One answer whether the address has an account or not, so nobody can probe which do. */
export const RESET_REQUESTED_MESSAGE =
  'If an account exists for that address, we have sent it a link to reset the password. The link works once, within 1 hour.';
export const INVALID_RESET_LINK_MESSAGE = 'This password reset link is invalid or has expired.';
export const PASSWORD_RESET_MESSAGE = 'Your password has been reset. Please log in with the new password.';
