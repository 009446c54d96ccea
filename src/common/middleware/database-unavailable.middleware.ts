import type { NextFunction, Request, Response } from 'express';
import { isDatabaseUnavailable } from '../../database/sql';

export const SERVICE_UNAVAILABLE_MESSAGE = 'Service temporarily unavailable, please retry shortly';

/**
 * The session store and passport read the database before any controller runs, so their
 * failures never reach the app's error filter: a database that is down or too slow gets the same
 * 503 answer here instead of Express's HTML error page.
 */
export function databaseUnavailableAnswer(
  error: unknown,
  _request: Request,
  response: Response,
  next: NextFunction,
): void {
  if (!isDatabaseUnavailable(error) || response.headersSent) return next(error);
  response.status(503).json({
    error: SERVICE_UNAVAILABLE_MESSAGE,
    message: SERVICE_UNAVAILABLE_MESSAGE,
    statusCode: 503,
  });
}
