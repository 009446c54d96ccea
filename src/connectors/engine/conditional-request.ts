import { createHash } from 'node:crypto';
import type { HttpRequest, HttpResponse } from './safe-http-client';

/** What an answer said about its version, kept to ask next time whether it changed. */
export interface ResponseValidators {
  /**
   * A hash of the URL they belong to (a URL may carry a key, never kept in clear): another URL
   * (changed settings) is asked for in full.
   */
  url_hash: string;
  etag?: string;
  last_modified?: string;
}

export const NOT_MODIFIED_NOTE =
  'No change since the last run (HTTP 304 Not Modified): the table was left as it was';

/** The request asking only for a newer version than the one kept: If-None-Match, If-Modified-Since. */
export function conditionalRequest(request: HttpRequest, kept: ResponseValidators | undefined): HttpRequest {
  if (!kept || kept.url_hash !== urlHash(request.url)) return request;
  const headers = { ...request.headers };
  if (kept.etag) headers['if-none-match'] = kept.etag;
  if (kept.last_modified) headers['if-modified-since'] = kept.last_modified;
  return { ...request, headers };
}

/** Whether a request asked for a newer version only (so a 304 answer means "no change"). */
export function isConditional(request: HttpRequest): boolean {
  return 'if-none-match' in request.headers || 'if-modified-since' in request.headers;
}

/** The answer's ETag and Last-Modified, if it gave either. */
export function validatorsOf(response: HttpResponse, url: string): ResponseValidators | undefined {
  const etag = single(response.headers.etag);
  const lastModified = single(response.headers['last-modified']);
  if (!etag && !lastModified) return undefined;
  return {
    url_hash: urlHash(url),
    ...(etag ? { etag } : {}),
    ...(lastModified ? { last_modified: lastModified } : {}),
  };
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function urlHash(url: string): string {
  return createHash('sha256').update(url).digest('hex');
}
