/**
 * The answer to a login refused because the account is locked. The same whether the address has
 * an account or not (unknown addresses are counted and locked alike), so it reveals nothing.
 */
export const ACCOUNT_LOCKED_MESSAGE =
  'Too many failed login attempts on this account, so new browsers are stopped for a while. We have e-mailed the account an unlock link: open it in the browser you want to sign in from.';
/** The code step's lock: only someone who gave the right password sees it. */
export const CODE_STEP_LOCKED_MESSAGE =
  'Too many wrong codes for this account, so new browsers are stopped for a while. We have e-mailed you an unlock link: open it in this browser, then log in again.';
export const UNLOCKED_MESSAGE = 'This browser can sign in again. Please log in.';
export const INVALID_UNLOCK_LINK_MESSAGE =
  'This unlock link has already been used or has expired. Try to log in again to get a new one by e-mail.';
