import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { NextFunction, Request, Response, RequestHandler } from 'express';

/** Paths that belong to the server, not to the single-page app. */
function isServerPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/') || path.startsWith('/api-documentation');
}

/**
 * Serves the built SPA from `/` with history fallback: any GET that is not an API path answers
 * index.html so client-side routes survive a reload. `/ws` is deliberately no app route.
 */
export function spaHandlers(webRoot: string): RequestHandler[] {
  const indexFile = join(webRoot, 'index.html');
  const hasBuild = existsSync(indexFile);
  const assets = express.static(webRoot, { index: false, maxAge: '1h', fallthrough: true });
  const fallback = (request: Request, response: Response, next: NextFunction) => {
    if (isServerPath(request.path)) return next();
    if (request.path === '/ws' || request.path.startsWith('/ws/')) {
      response.status(404).type('text/plain').send('Not found');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return next();
    if (!hasBuild) {
      response.status(503).type('text/plain').send('The web app is not built yet: run `npm run build`.');
      return;
    }
    response.setHeader('Cache-Control', 'no-cache');
    response.sendFile(indexFile);
  };
  const staticAssets = (request: Request, response: Response, next: NextFunction) =>
    isServerPath(request.path) ? next() : assets(request, response, next);
  return [staticAssets, fallback];
}
