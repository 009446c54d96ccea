import type { NextFunction, Request, Response } from 'express';

/** The only endpoints that take a multipart form (a CSV file and its fields): upload, its preview and refresh. */
const MULTIPART_PATHS = new Set(['/api/assets/upload-csv', '/api/assets/upload-preview']);
const MULTIPART_PATTERNS = [/^\/api\/assets\/[0-9a-f-]{36}\/refresh$/i];

export function takesMultipart(path: string): boolean {
  const trimmed = path.replace(/\/+$/, '');
  return MULTIPART_PATHS.has(trimmed) || MULTIPART_PATTERNS.some((pattern) => pattern.test(trimmed));
}

export const JSON_ONLY_MESSAGE = 'Send the request body as JSON (Content-Type: application/json).';

function hasBody(request: Request): boolean {
  const length = Number(request.header('content-length') ?? 0);
  return length > 0 || request.header('transfer-encoding') !== undefined;
}

/**
 * Accepts JSON where JSON is expected, and multipart only on the upload and refresh endpoints: a form-encoded
 * or multipart body elsewhere is refused with 415 before anything reads it, so a plain HTML form
 * from another site cannot produce a request the API would act on.
 */
export function acceptedBodyTypes(request: Request, response: Response, next: NextFunction): void {
  if (!hasBody(request) || !request.path.startsWith('/api/')) return next();
  const path = request.path.replace(/\/+$/, '');
  const isJson = Boolean(request.is(['application/json', 'application/*+json']));
  const isMultipart = Boolean(request.is('multipart/form-data'));
  if (isJson || (isMultipart && takesMultipart(path))) return next();
  response.status(415).json({ error: JSON_ONLY_MESSAGE, message: JSON_ONLY_MESSAGE, statusCode: 415 });
}
