import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Requests-per-interval budgets, one per key (a connector), shared by every run of this
 * process. Each request reserves the earliest slot the window allows before it waits, so
 * concurrent runs queue up instead of all seeing the same free slot.
 */
export class RateBudget {
  private readonly slots = new Map<string, number[]>();

  async take(key: string, limit: { requests: number; per_seconds: number }): Promise<void> {
    const windowMs = limit.per_seconds * 1000;
    const now = Date.now();
    const taken = (this.slots.get(key) ?? []).filter((time) => time > now - windowMs);
    const at = taken.length < limit.requests ? now : taken[taken.length - limit.requests] + windowMs;
    taken.push(Math.max(at, now));
    this.slots.set(key, taken);
    if (at > now) await sleep(at - now);
  }
}
