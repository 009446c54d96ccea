/** Run history helpers: whether a run is still going, and what to show per run. */

export type RunStatus = 'running' | 'succeeded' | 'failed';

export interface RunSummary {
  id: string;
  status: RunStatus;
  started_at?: string | null;
  finished_at?: string | null;
  row_count?: number | null;
  error?: string | null;
}

export function hasRunningRun(runs: RunSummary[] | undefined): boolean {
  return !!runs?.some((run) => run.status === 'running');
}

/**
 * True when a run that was running in `before` has finished in `after`: the moment to reload the
 * preview of the table.
 */
export function runFinished(before: RunSummary[] | undefined, after: RunSummary[] | undefined): boolean {
  if (!before || !after) return false;
  const running = new Set(before.filter((run) => run.status === 'running').map((run) => run.id));
  return after.some((run) => running.has(run.id) && run.status !== 'running');
}

export function runStatusLabel(status: RunStatus): string {
  return { running: 'Running', succeeded: 'Succeeded', failed: 'Failed' }[status] ?? status;
}

export function runStatusColor(status: RunStatus): 'info' | 'success' | 'error' {
  return status === 'running' ? 'info' : status === 'succeeded' ? 'success' : 'error';
}
