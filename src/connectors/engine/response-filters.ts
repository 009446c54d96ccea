import type { IncomingHttpHeaders } from 'node:http';
import type { ResponseFilter } from '../dsl/connector-spec.types';
import { valueAtResponsePath } from './response-path';

export type FilterAction = ResponseFilter['action'];

/**
 * The first response filter of the spec that matches an answer: every condition it names
 * (status codes, a header value, a body value) must hold. `document` is the parsed body, or
 * undefined when the body is not JSON.
 */
export function matchFilter(
  filters: ResponseFilter[] | undefined,
  status: number,
  headers: IncomingHttpHeaders,
  document: () => unknown,
): ResponseFilter | undefined {
  return (filters ?? []).find((filter) => {
    if (filter.http_codes && !filter.http_codes.includes(status)) return false;
    if (filter.header !== undefined) {
      const raw = headers[filter.header.toLowerCase()];
      const value = Array.isArray(raw) ? raw[0] : raw;
      if (filter.equals === undefined ? value === undefined : String(filter.equals) !== value) return false;
    }
    if (filter.path !== undefined) {
      const value = valueAtResponsePath(document(), filter.path);
      if (filter.equals === undefined ? value === undefined : value !== filter.equals) return false;
    }
    return true;
  });
}

/** The upstream's own message at `message_path`, for a run failed by a filter. */
export function filterMessage(filter: ResponseFilter, document: unknown): string | undefined {
  if (!filter.message_path) return undefined;
  const value = valueAtResponsePath(document, filter.message_path);
  if (value === undefined || value === null) return undefined;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
