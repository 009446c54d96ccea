import connectPgSimple from 'connect-pg-simple';
import session, { type SessionData } from 'express-session';

/** A session's renewal in the store is written at most this often (sessions roll on every answer). */
export const SESSION_TOUCH_INTERVAL_MS = 10 * 60_000;
/** Sessions remembered as renewed; beyond this the oldest are forgotten (they renew once more). */
const MAX_REMEMBERED = 100_000;

const PgSessionStore = connectPgSimple(session);

/**
 * The PostgreSQL session store, renewing a session's expiry (one UPDATE) at most once per
 * SESSION_TOUCH_INTERVAL_MS per process instead of on every request of a logged-in user. The
 * stored expiry may then trail the cookie's by up to that interval: a session left unused ends
 * that much before its 7 days at most. A save (the session changed) still writes at once.
 */
export class ThrottledPgSessionStore extends PgSessionStore {
  private readonly renewedAt = new Map<string, number>();
  override touch(sid: string, data: SessionData, callback?: (error?: unknown) => void): void {
    const time = Date.now();
    const last = this.renewedAt.get(sid);
    if (last !== undefined && time - last < SESSION_TOUCH_INTERVAL_MS) {
      callback?.();
      return;
    }
    // Re-inserted, so the map's first key is the one renewed longest ago.
    this.renewedAt.delete(sid);
    this.renewedAt.set(sid, time);
    if (this.renewedAt.size > MAX_REMEMBERED) this.renewedAt.delete(this.renewedAt.keys().next().value!);
    super.touch(sid, data, callback);
  }

  override destroy(sid: string, callback?: (error?: unknown) => void): void {
    this.renewedAt.delete(sid);
    super.destroy(sid, callback);
  }
}
