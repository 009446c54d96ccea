import type { Request } from 'express';

export const API_KEY_HEADER = 'x-api-key';
export const API_KEY_QUERY = 'api_key';

/** The token of an `Authorization: Bearer <token>` header, the way many BI tools and scripts send one. */
function bearerTokenOf(request: Request): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.header('authorization') ?? '');
  return match?.[1];
}

/**
 * The key from the X-API-Key header (kept out of URLs), an `Authorization: Bearer` header, or
 * else the api_key query parameter. A parameter repeated with one value counts once: BI tools
 * that add their stored key to every request (Power Query's ApiKeyName) also add it to a
 * next-page link that already carries it.
 */
export function apiKeyOf(request: Request): string | undefined {
  const header = request.header(API_KEY_HEADER);
  if (header) return header.trim();
  const bearer = bearerTokenOf(request);
  if (bearer) return bearer;
  const query = (request.query as Record<string, unknown>)[API_KEY_QUERY];
  const values = new Set((Array.isArray(query) ? query : [query]).map((value) => value));
  const [only] = values;
  return values.size === 1 && typeof only === 'string' && only ? only.trim() : undefined;
}
