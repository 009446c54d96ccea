import { exactTime, freshness, scheduleText, timeAgo } from './freshness';

const NOW = new Date('2026-03-10T12:00:00Z');
const minutesBefore = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);

describe('timeAgo', () => {
  it('says "just now" within the first minute and when the clock is slightly ahead', () => {
    expect(timeAgo(minutesBefore(0.5), NOW)).toBe('just now');
    expect(timeAgo(minutesBefore(-2), NOW)).toBe('just now');
  });

  it('counts minutes, then hours, then days, in the singular for one', () => {
    expect(timeAgo(minutesBefore(1), NOW)).toBe('1 minute ago');
    expect(timeAgo(minutesBefore(12), NOW)).toBe('12 minutes ago');
    expect(timeAgo(minutesBefore(59), NOW)).toBe('59 minutes ago');
    expect(timeAgo(minutesBefore(60), NOW)).toBe('1 hour ago');
    expect(timeAgo(minutesBefore(5 * 60 + 40), NOW)).toBe('5 hours ago');
    expect(timeAgo(minutesBefore(24 * 60), NOW)).toBe('1 day ago');
    expect(timeAgo(minutesBefore(3 * 24 * 60 + 1), NOW)).toBe('3 days ago');
  });
});

describe('scheduleText', () => {
  it('says the interval in minutes up to an hour, in hours or days when they are whole', () => {
    expect(scheduleText(1)).toBe('Refreshes every 1 minute');
    expect(scheduleText(60)).toBe('Refreshes every 60 minutes');
    expect(scheduleText(90)).toBe('Refreshes every 90 minutes');
    expect(scheduleText(180)).toBe('Refreshes every 3 hours');
    expect(scheduleText(1440)).toBe('Refreshes every 1 day');
    expect(scheduleText(2880)).toBe('Refreshes every 2 days');
  });

  it('says that a listing without an interval is refreshed by hand', () => {
    expect(scheduleText(0)).toBe('Refreshed by its owner, not on a schedule');
  });
});

describe('freshness', () => {
  const refreshed = minutesBefore(12).toISOString();

  it('reads "Updated 12 minutes ago" with the exact time for the hover', () => {
    expect(freshness({ last_refreshed_at: refreshed, stale_since: null }, NOW)).toEqual({
      state: 'fresh',
      text: 'Updated 12 minutes ago',
      exact: exactTime(refreshed),
    });
  });

  it('reads "Stale since …" once the server marks the listing stale, whatever the last refresh', () => {
    const since = minutesBefore(5).toISOString();
    expect(freshness({ last_refreshed_at: refreshed, stale_since: since }, NOW)).toEqual({
      state: 'stale',
      text: `Stale since ${exactTime(since)}`,
      exact: exactTime(since),
    });
  });

  it('says a listing never refreshed is not refreshed yet', () => {
    expect(freshness({ last_refreshed_at: null, stale_since: null }, NOW)).toEqual({
      state: 'pending',
      text: 'Not refreshed yet',
      exact: null,
    });
  });
});
