/**
 * Where to go after logging in: back to the screen that sent the user to /login (carried as
 * `next`), or /manage when there is nowhere to return to. Only a path on this site counts: an
 * absolute or protocol-relative address (`//evil.com`) would make the login page an open redirect.
 */
export const DEFAULT_AFTER_LOGIN = '/manage';

/** Screens it makes no sense to return to after logging in. */
const NO_RETURN = /^\/(login|register|verify-email)(\/|\?|#|$)/;

export function safeNextPath(next: string | null | undefined): string | null {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return null;
  // Control characters and backslashes are read by browsers in ways that can leave the site.
  if (
    next.includes('\\') ||
    [...next].some((character) => character.charCodeAt(0) < 0x20 || character === '\u007f')
  )
    return null;
  let parsed: URL;
  try {
    parsed = new URL(next, 'http://same.invalid');
  } catch {
    return null;
  }
  if (parsed.origin !== 'http://same.invalid') return null;
  const path = `${parsed.pathname}${parsed.search}${parsed.hash}`;
  return NO_RETURN.test(path) ? null : path;
}

export function pathAfterLogin(next: string | null | undefined): string {
  return safeNextPath(next) ?? DEFAULT_AFTER_LOGIN;
}

/** /login, remembering the screen to come back to. */
export function loginPath(from: { pathname: string; search?: string; hash?: string }): string {
  const next = safeNextPath(`${from.pathname}${from.search ?? ''}${from.hash ?? ''}`);
  return next ? `/login?${new URLSearchParams({ next })}` : '/login';
}
