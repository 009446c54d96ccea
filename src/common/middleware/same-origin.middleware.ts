import { Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { carriesCookie } from '../session/session-cookie';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];
const logger = new Logger('SameOrigin');

function originOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    return new URL(value).origin;
  } catch {
    return 'invalid';
  }
}

/**
 * The origins a browser may send for the app: the configured one and, when asked for, the other
 * loopback names of a loopback origin (people type 127.0.0.1 where the default says localhost).
 */
export function acceptedOrigins(appOrigin: string, loopbackAliases: boolean): Set<string> {
  const configured = new URL(appOrigin);
  const accepted = new Set([configured.origin]);
  if (!loopbackAliases || !LOOPBACK_HOSTS.includes(configured.hostname)) return accepted;
  for (const host of LOOPBACK_HOSTS) {
    const alias = new URL(configured.origin);
    alias.hostname = host;
    accepted.add(alias.origin);
  }
  return accepted;
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

export interface SameOriginOptions {
  appOrigin: string;
  sessionCookie: string;
  /** Development only: production keeps the strict check against the configured origin. */
  loopbackAliases: boolean;
}

/**
 * CSRF defence: a state-changing request that a browser sends from another site carries that
 * site's Origin (or Referer); such requests are refused so session cookies cannot be used
 * cross-site. A browser request with neither header is refused too (privacy settings and
 * extensions strip them, and SameSite alone must not be the only defence). Calls with an API key
 * and machine clients without a session cookie (curl, BI tools, server-to-server) pass.
 */
export function sameOriginOnly({ appOrigin, sessionCookie, loopbackAliases }: SameOriginOptions) {
  const accepted = acceptedOrigins(appOrigin, loopbackAliases);
  const expected = [...accepted].join(' or ');
  return (request: Request, response: Response, next: NextFunction): void => {
    if (SAFE_METHODS.has(request.method)) return next();
    const origin = originOf(request.header('origin')) ?? originOf(request.header('referer'));
    if (origin !== undefined && accepted.has(origin)) return next();
    // A key in the query string says nothing about the sender: a request with the session cookie is
    // a browser's, and the cookie would act for it.
    const apiKeyOnly = carriesApiKey(request) && !carriesCookie(request, sessionCookie);
    if (origin === undefined && (apiKeyOnly || !fromBrowser(request, sessionCookie))) return next();
    // The path only: a query string may carry an API key.
    logger.warn(
      `Refused ${request.method} ${request.path}: Origin ${origin ?? '(none)'}, expected ${expected} (APP_ORIGIN)`,
    );
    const message = 'Cross-origin request refused';
    response.status(403).json({ error: message, message, statusCode: 403 });
  };
}
