import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNotify } from '../../components/useNotify';
import { finishedRun, RunSummary } from '../../features/detail/runs';
import { useInstanceRuns } from '../../features/detail/setupQueries';

const WATCH_AFTER_TRIGGER_MS = 15_000;

/**
 * Polls the run history while a run is going (and shortly after Run Now), and when a run ends
 * reloads the table preview and says how it went, so nobody has to reload the page.
 */
export function useRunWatch(
  instanceId: string | undefined,
  tableName: string | undefined,
  triggeredAt: number,
) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const runs = useInstanceRuns(instanceId, triggeredAt ? triggeredAt + WATCH_AFTER_TRIGGER_MS : 0);
  const previous = useRef<RunSummary[] | undefined>(undefined);

  useEffect(() => {
    const before = previous.current;
    previous.current = runs.data;
    const finished = finishedRun(before, runs.data);
    if (!finished) return;
    void queryClient.invalidateQueries({ queryKey: ['assets', 'table', tableName] });
    void queryClient.invalidateQueries({ queryKey: ['connectors', 'my'] });
    if (finished.status === 'succeeded')
      notify(`Run finished: ${finished.row_count ?? 0} rows fetched.`, 'success');
    else notify(`Run failed: ${finished.error ?? 'unknown error'}`, 'error');
  }, [runs.data, queryClient, notify, tableName]);

  return runs;
}
