import { AsyncLocalStorage } from 'node:async_hooks';
import type { NextFunction, Request, Response } from 'express';

/**
 * The request being served, for code far from the controller that must know who asks (the read
 * routing: a caller's reads go to the primary until the replica shows what they have seen).
 */
const requests = new AsyncLocalStorage<Request>();

export function currentRequest(): Request | undefined {
  return requests.getStore();
}

/** Express middleware: everything after it runs with the request as its context. */
export function requestContext(request: Request, _response: Response, next: NextFunction): void {
  requests.run(request, next);
}
