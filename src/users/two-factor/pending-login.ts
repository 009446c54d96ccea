import type { Request } from 'express';
import type { Session } from 'express-session';

/** How long the code step may take after the right password. */
const PENDING_LIFETIME_MS = 5 * 60_000;

interface PendingLoginSession extends Session {
  /** The password was right; the account waits for its second factor (not logged in yet). */
  twoFactorPending?: { userId: string; expiresAt: number };
}

/**
 * Starts the code step in a fresh session bound to this browser. No passport user is set, so
 * the session is not logged in; completing the login regenerates the session once more.
 */
export async function beginPendingLogin(request: Request, userId: string): Promise<void> {
  await new Promise<void>((resolve, reject) =>
    request.session.regenerate((error: unknown) => (error ? reject(error) : resolve())),
  );
  (request.session as PendingLoginSession).twoFactorPending = {
    userId,
    expiresAt: Date.now() + PENDING_LIFETIME_MS,
  };
}

/** The account waiting for its code in this browser, if the step has not expired. */
export function pendingLoginUser(request: Request): string | undefined {
  const pending = (request.session as PendingLoginSession | undefined)?.twoFactorPending;
  return pending && pending.expiresAt > Date.now() ? pending.userId : undefined;
}
