import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { NextFunction, Request, Response, RequestHandler } from 'express';
import expressStaticGzip from 'express-static-gzip';

/** Files at the site's root that the server makes (src/listings), not the build. */
export const SITE_FILES = ['robots.txt', 'sitemap.xml'];

/** Paths that belong to the server, not to the single-page app. */
function isServerPath(path: string): boolean {
  return (
    path === '/api' ||
    path.startsWith('/api/') ||
    path.startsWith('/api-documentation') ||
    SITE_FILES.some((file) => path === `/${file}`)
  );
}

/**
 * index.html as a given app path should start, or undefined for the page as built: public listing
 * pages carry their title, description and JSON-LD (src/listings/listing-pages.service.ts).
 */
export type PageRenderer = (path: string, indexHtml: () => Promise<string>) => Promise<string | undefined>;

/** Vite names the files under /assets/ by their content's hash: a changed file gets a new name. */
const HASHED_ASSETS = '/assets/';
const FOREVER = 'public, max-age=31536000, immutable';

/**
 * Serves the built SPA from `/` with history fallback: any GET that is not an API path answers
 * index.html so client-side routes survive a reload. `/ws` is deliberately no app route.
 * Files are sent as the build pre-compressed them (brotli, else gzip, as the browser accepts);
 * hashed assets are cached for a year, index.html is revalidated on every visit so a new build
 * is seen at once, and a missing asset is a 404 rather than the app page. `renderPage` may answer
 * a route with its own copy of index.html (a public listing's head written in).
 */
export function spaHandlers(webRoot: string, renderPage?: PageRenderer): RequestHandler[] {
  const indexFile = join(webRoot, 'index.html');
  const hasBuild = existsSync(indexFile);
  const assets = expressStaticGzip(webRoot, {
    enableBrotli: true,
    orderPreference: ['br', 'gzip'],
    index: false,
    serveStatic: {
      fallthrough: true,
      setHeaders: (response, path) => {
        const hashed = path.replace(/\\/g, '/').includes(HASHED_ASSETS);
        response.setHeader(
          'Cache-Control',
          hashed ? FOREVER : path.endsWith('.html') ? 'no-cache' : 'public, max-age=3600',
        );
      },
    },
  });
  const fallback = (request: Request, response: Response, next: NextFunction) => {
    if (isServerPath(request.path)) return next();
    if (request.path === '/ws' || request.path.startsWith('/ws/') || request.path.startsWith(HASHED_ASSETS)) {
      response.status(404).type('text/plain').send('Not found');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return next();
    if (!hasBuild) {
      response.status(503).type('text/plain').send('The web app is not built yet: run `npm run build`.');
      return;
    }
    response.setHeader('Cache-Control', 'no-cache');
    if (!renderPage) return response.sendFile(indexFile);
    renderPage(request.path, () => readFile(indexFile, 'utf8')).then(
      (page) => (page === undefined ? response.sendFile(indexFile) : response.type('html').send(page)),
      next,
    );
  };
  const staticAssets = (request: Request, response: Response, next: NextFunction) =>
    isServerPath(request.path) ? next() : assets(request, response, next);
  return [staticAssets, fallback];
}
