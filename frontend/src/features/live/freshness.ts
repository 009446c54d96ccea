/** How a live dataset's freshness reads: its schedule, "Updated 12 minutes ago", "Stale since …". */

const MINUTE_MS = 60_000;

/** The parts of a listing's `live` block these texts read. */
export interface FreshnessFacts {
  last_refreshed_at: string | null;
  stale_since: string | null;
}

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** "just now", "12 minutes ago", "3 hours ago", "2 days ago"; a clock a little ahead still reads "just now". */
export function timeAgo(then: Date, now: Date): string {
  const minutes = Math.floor((now.getTime() - then.getTime()) / MINUTE_MS);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${plural(minutes, 'minute')} ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${plural(hours, 'hour')} ago`;
  return `${plural(Math.floor(hours / 24), 'day')} ago`;
}

/** "Refreshes every 60 minutes"; an interval of whole days or hours is said in those. */
export function scheduleText(intervalMinutes: number): string {
  if (intervalMinutes <= 0) return 'Refreshed by its owner, not on a schedule';
  if (intervalMinutes % 1440 === 0) return `Refreshes every ${plural(intervalMinutes / 1440, 'day')}`;
  if (intervalMinutes > 60 && intervalMinutes % 60 === 0)
    return `Refreshes every ${plural(intervalMinutes / 60, 'hour')}`;
  return `Refreshes every ${plural(intervalMinutes, 'minute')}`;
}

/** The exact moment, for the hover text and the stale notice, in the reader's locale. */
export function exactTime(value: string): string {
  return new Date(value).toLocaleString();
}

export type Freshness =
  | { state: 'fresh'; text: string; exact: string }
  | { state: 'stale'; text: string; exact: string }
  | { state: 'pending'; text: string; exact: null };

/**
 * What a live dataset says about its rows. Stale wins: the server has decided the promise is
 * broken (interval plus grace passed), whatever the last success was.
 */
export function freshness(live: FreshnessFacts, now: Date): Freshness {
  if (live.stale_since)
    return {
      state: 'stale',
      text: `Stale since ${exactTime(live.stale_since)}`,
      exact: exactTime(live.stale_since),
    };
  if (!live.last_refreshed_at) return { state: 'pending', text: 'Not refreshed yet', exact: null };
  return {
    state: 'fresh',
    text: `Updated ${timeAgo(new Date(live.last_refreshed_at), now)}`,
    exact: exactTime(live.last_refreshed_at),
  };
}
