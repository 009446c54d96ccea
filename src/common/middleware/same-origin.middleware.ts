import type { NextFunction, Request, Response } from 'express';
import { carriesCookie } from '../session/session-cookie';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function originOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    return new URL(value).origin;
  } catch {
    return 'invalid';
  }
}

/** A call authenticated by an API key (BI tools, scripts): no browser session is involved. */
function carriesApiKey(request: Request): boolean {
  return request.header('x-api-key') !== undefined || request.query.api_key !== undefined;
}

/**
 * Signs of a browser: it sends the session cookie, or Fetch Metadata (Sec-Fetch-*), which every
 * current browser adds and no page can suppress.
 */
function fromBrowser(request: Request, sessionCookie: string): boolean {
  return (
    carriesCookie(request, sessionCookie) ||
    request.header('sec-fetch-site') !== undefined ||
    request.header('sec-fetch-mode') !== undefined
  );
}

/**
 * CSRF defence: a state-changing request that a browser sends from another site carries that
 * site's Origin (or Referer); such requests are refused so session cookies cannot be used
 * cross-site. A browser request with neither header is refused too (privacy settings and
 * extensions strip them, and SameSite alone must not be the only defence). Calls with an API key
 * and machine clients without a session cookie (curl, BI tools, server-to-server) pass.
 */
export function sameOriginOnly(appOrigin: string, sessionCookie: string) {
  const allowed = new URL(appOrigin).origin;
  return (request: Request, response: Response, next: NextFunction): void => {
    if (SAFE_METHODS.has(request.method)) return next();
    const origin = originOf(request.header('origin')) ?? originOf(request.header('referer'));
    if (origin === allowed) return next();
    // A key in the query string says nothing about the sender: a request with the session cookie is
    // a browser's, and the cookie would act for it.
    const apiKeyOnly = carriesApiKey(request) && !carriesCookie(request, sessionCookie);
    if (origin === undefined && (apiKeyOnly || !fromBrowser(request, sessionCookie))) return next();
    const message = 'Cross-origin request refused';
    response.status(403).json({ error: message, message, statusCode: 403 });
  };
}
