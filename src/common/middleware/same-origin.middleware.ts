import type { NextFunction, Request, Response } from 'express';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function originOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    return new URL(value).origin;
  } catch {
    return 'invalid';
  }
}

/**
 * CSRF defence: a state-changing request that a browser sends from another site carries that
 * site's Origin (or Referer); such requests are refused so session cookies cannot be used
 * cross-site. Requests without either header (curl, BI tools, server-to-server) are not
 * browser-driven and pass.
 */
export function sameOriginOnly(appOrigin: string) {
  const allowed = new URL(appOrigin).origin;
  return (request: Request, response: Response, next: NextFunction): void => {
    if (SAFE_METHODS.has(request.method)) return next();
    const origin = originOf(request.header('origin')) ?? originOf(request.header('referer'));
    if (origin === undefined || origin === allowed) return next();
    const message = 'Cross-origin request refused';
    response.status(403).json({ error: message, message, statusCode: 403 });
  };
}
