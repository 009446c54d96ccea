import type { NextFunction, Request, Response } from 'express';
import type { LoginSession } from '../../common/middleware/session-lifetime.middleware';
import { displayAddress } from '../../common/client-address';

/** Last-seen is kept coarse: refreshing it is a session write, so at most this often. */
export const LAST_SEEN_INTERVAL_MS = 10 * 60_000;
/** A user agent longer than this is cut: it is only shown, never parsed for decisions. */
const MAX_USER_AGENT_LENGTH = 512;

/** What the Sessions list shows about a logged-in session, kept in the session row itself. */
export interface SessionDetails {
  userAgent: string;
  ip: string;
  /** ms since the epoch, updated at most every LAST_SEEN_INTERVAL_MS */
  lastSeenAt: number;
}

export interface DescribedSession extends LoginSession {
  details?: SessionDetails;
}

/** Called at login, on the new session. */
export function recordSessionDetails(request: Request): void {
  (request.session as DescribedSession).details = {
    userAgent: (request.headers['user-agent'] ?? '').slice(0, MAX_USER_AGENT_LENGTH),
    ip: displayAddress(request.ip),
    lastSeenAt: Date.now(),
  };
}

/**
 * Moves a logged-in session's last-seen forward when it is older than LAST_SEEN_INTERVAL_MS:
 * changing the session makes express-session write it, so most requests write nothing.
 */
export function refreshLastSeen(request: Request, _response: Response, next: NextFunction): void {
  const session = request.session as DescribedSession | undefined;
  const details = session?.details;
  if (!session?.passport?.user || !details) return next();
  const now = Date.now();
  if (now - details.lastSeenAt >= LAST_SEEN_INTERVAL_MS) {
    session.details = {
      ...details,
      ip: request.ip ? displayAddress(request.ip) : details.ip,
      lastSeenAt: now,
    };
  }
  next();
}
