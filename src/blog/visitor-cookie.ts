import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { CookieOptions, Request } from 'express';

/**
 * An anonymous visitor's id, so that likes count one per person rather than one per network (an
 * office behind one address). Random, signed with the session secret so it cannot be made up,
 * httpOnly and SameSite=Lax; it identifies a browser, nobody's account.
 */
export const VISITOR_COOKIE = 'dm_visitor';
const ONE_YEAR_MS = 365 * 24 * 3600 * 1000;

function signature(id: string, secret: string): string {
  return createHmac('sha256', secret).update(`visitor:${id}`).digest('base64url');
}

export function signVisitorId(id: string, secret: string): string {
  return `${id}.${signature(id, secret)}`;
}

/** The id of a genuine cookie value, or undefined for a missing, altered or foreign one. */
export function verifyVisitorId(value: string | undefined, secret: string): string | undefined {
  const [id, given, extra] = (value ?? '').split('.');
  if (!id || !given || extra !== undefined || !/^[0-9a-f-]{36}$/.test(id)) return undefined;
  const expected = Buffer.from(signature(id, secret));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected) ? id : undefined;
}

/** The cookie's value in the request's Cookie header (the app reads no other cookie by hand). */
function cookieValue(request: Request, name: string): string | undefined {
  for (const pair of (request.headers.cookie ?? '').split(';')) {
    const separator = pair.indexOf('=');
    if (separator > 0 && pair.slice(0, separator).trim() === name) return pair.slice(separator + 1).trim();
  }
  return undefined;
}

/** The visitor's id from their cookie, or a new one with the cookie to set. */
export function visitorOf(
  request: Request,
  secret: string,
): { id: string; newCookie?: { value: string; options: CookieOptions } } {
  const known = verifyVisitorId(cookieValue(request, VISITOR_COOKIE), secret);
  if (known) return { id: known };
  const id = randomUUID();
  return {
    id,
    newCookie: {
      value: signVisitorId(id, secret),
      options: { httpOnly: true, sameSite: 'lax', secure: request.secure, maxAge: ONE_YEAR_MS, path: '/' },
    },
  };
}
