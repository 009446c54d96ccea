import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Requests-per-interval budgets, one per key (a connector), shared by every run of this
 * process. Takers of one key are served in turn, and each is let through only when fewer than
 * the limit were let through in the window before that moment, measured when it is let through
 * (not when it asked): a timer that fires late, on a busy machine, never lets the next request
 * go early.
 */
export class RateBudget {
  /** Per key, when each request of the current window was let through. */
  private readonly sent = new Map<string, number[]>();
  /** Per key, the last taker in line. */
  private readonly lines = new Map<string, Promise<void>>();

  take(key: string, limit: { requests: number; per_seconds: number }): Promise<void> {
    const turn = (this.lines.get(key) ?? Promise.resolve()).then(() => this.letThrough(key, limit));
    this.lines.set(key, turn);
    void turn.finally(() => {
      if (this.lines.get(key) === turn) this.lines.delete(key);
    });
    return turn;
  }

  private async letThrough(key: string, limit: { requests: number; per_seconds: number }): Promise<void> {
    const windowMs = limit.per_seconds * 1000;
    for (;;) {
      const now = Date.now();
      const sent = (this.sent.get(key) ?? []).filter((time) => time > now - windowMs);
      this.sent.set(key, sent);
      if (sent.length < limit.requests) {
        sent.push(now);
        return;
      }
      await sleep(sent[sent.length - limit.requests] + windowMs - now);
    }
  }
}
