import type { NextFunction, Request, Response } from 'express';
import type { Session } from 'express-session';

/** What a logged-in session keeps besides passport's user id. */
export interface LoginSession extends Session {
  passport?: { user?: unknown };
  /** When the user logged in (ms since the epoch); the session ends a fixed time after it. */
  loggedInAt?: number;
}

/** Marks the moment of login; called once passport has put the user on the (new) session. */
export function markLogin(session: LoginSession): void {
  session.loggedInAt = Date.now();
}

/**
 * Sessions roll on use, but not for ever: `lifetimeMs` after login a new login is needed. An
 * expired session is swapped for a fresh, empty one (the request goes on logged out), and the
 * cookie of a session close to its end expires with it. Sessions from before this rule count
 * from their first request after it.
 */
export function absoluteSessionLifetime(lifetimeMs: number) {
  return (request: Request, _response: Response, next: NextFunction): void => {
    const session = request.session as LoginSession | undefined;
    if (!session?.passport?.user) return next();
    const now = Date.now();
    session.loggedInAt ??= now;
    const remaining = session.loggedInAt + lifetimeMs - now;
    if (remaining <= 0) {
      session.regenerate((error) => next(error));
      return;
    }
    // express-session renews the cookie to originalMaxAge on every answer: never past the end.
    if ((session.cookie.originalMaxAge ?? Infinity) > remaining) {
      session.cookie.originalMaxAge = remaining;
      session.cookie.maxAge = remaining;
    }
    next();
  };
}
