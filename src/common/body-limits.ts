import type { NextFunction, Request, Response } from 'express';

/** Largest JSON request body the API reads (blog posts are the biggest: up to 1,000,000 characters). */
export const JSON_BODY_LIMIT_BYTES = 2 * 1024 * 1024;
export const JSON_BODY_LIMIT_TEXT = '2 MB';
export const BODY_TOO_LARGE_MESSAGE = `The request body is too large (at most ${JSON_BODY_LIMIT_TEXT}).`;

/**
 * Refuses a JSON body whose Content-Length already says it is over the limit, before a byte of it
 * is read. The JSON parser would refuse it too, but only once the whole body had arrived: a client
 * claiming 2 GB held the request open for minutes. The connection closes with the answer, so the
 * rest of the body is never read. Uploads (multipart) have limits of their own.
 */
export function refuseOversizedJson(request: Request, response: Response, next: NextFunction): void {
  const length = Number(request.header('content-length') ?? 0);
  if (!(length > JSON_BODY_LIMIT_BYTES) || request.is('multipart/form-data')) return next();
  response.setHeader('Connection', 'close');
  response
    .status(413)
    .json({ error: BODY_TOO_LARGE_MESSAGE, message: BODY_TOO_LARGE_MESSAGE, statusCode: 413 });
}
