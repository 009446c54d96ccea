/** How many partitions an ignored-responses warning names before it says "and N more". */
export const MAX_IGNORED_NAMED = 5;

/** One answer a response filter ignored: its status and the partition it ended. */
export interface IgnoredResponse {
  status: number;
  partition: Record<string, unknown>;
}

/**
 * The run warning for answers a response filter ignored, so a skipped partition (a 404 for one
 * city of twenty) is seen on a run that otherwise succeeded; null when none was ignored.
 */
export function ignoredWarning(ignored: IgnoredResponse[]): string | null {
  if (ignored.length === 0) return null;
  const statuses = [...new Set(ignored.map((entry) => entry.status))].sort((a, b) => a - b);
  const noun = ignored.length === 1 ? 'response' : 'responses';
  const head = `Ignored ${ignored.length} ${noun} (HTTP ${statuses.join(', ')})`;
  const names = [...new Set(ignored.map((entry) => partitionName(entry.partition)).filter(Boolean))];
  if (names.length === 0) return head;
  const shown = names.slice(0, MAX_IGNORED_NAMED).join(', ');
  const more = names.length > MAX_IGNORED_NAMED ? ` and ${names.length - MAX_IGNORED_NAMED} more` : '';
  return `${head} for ${shown}${more}`;
}

/** A partition as `key=value` pairs (iterated settings, the parent's value), long values cut short. */
function partitionName(partition: Record<string, unknown>): string {
  return Object.entries(partition)
    .map(([key, value]) => `${key}=${shortText(value)}`)
    .join(' ');
}

function shortText(value: unknown): string {
  const text = typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}
