/** Run history helpers: whether a run is still going, and what to show per run. */

export type RunStatus = 'running' | 'succeeded' | 'failed';

export interface RunSummary {
  id: string;
  status: RunStatus;
  started_at?: string | null;
  finished_at?: string | null;
  row_count?: number | null;
  error?: string | null;
  /** A succeeded run that a cap stopped: more data may exist upstream. */
  warning?: string | null;
}

export function hasRunningRun(runs: RunSummary[] | undefined): boolean {
  return !!runs?.some((run) => run.status === 'running');
}

/**
 * The run that ended between two looks at the history: one that was running in `before`, or one
 * not there yet that is already over (a quick run can start and finish between two polls). The
 * moment to reload the preview of the table.
 */
export function finishedRun(
  before: RunSummary[] | undefined,
  after: RunSummary[] | undefined,
): RunSummary | undefined {
  if (!before || !after) return undefined;
  const known = new Map(before.map((run) => [run.id, run.status]));
  return after.find(
    (run) => run.status !== 'running' && (!known.has(run.id) || known.get(run.id) === 'running'),
  );
}

export function runStatusLabel(status: RunStatus): string {
  return { running: 'Running', succeeded: 'Succeeded', failed: 'Failed' }[status] ?? status;
}

export function runStatusColor(status: RunStatus): 'info' | 'success' | 'error' {
  return status === 'running' ? 'info' : status === 'succeeded' ? 'success' : 'error';
}
