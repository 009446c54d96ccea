import { useEffect, useRef } from 'react';
import { useNotify } from '../../components/useNotify';
import { ConnectorRun, useInstanceRuns, useReloadAfterRun } from '../../api/connectors';
import { finishedRun } from '../../features/detail/runs';

const WATCH_AFTER_TRIGGER_MS = 15_000;

/**
 * Polls the run history while a run is going (and shortly after Run Now), and when a run ends
 * reloads the table preview and says how it went, so nobody has to reload the page.
 */
export function useRunWatch(
  instanceId: string | undefined,
  /** Every table the instance fills: their previews reload when a run ends. */
  tableNames: string[],
  triggeredAt: number,
) {
  const reloadAfterRun = useReloadAfterRun();
  const notify = useNotify();
  const runs = useInstanceRuns(instanceId, triggeredAt ? triggeredAt + WATCH_AFTER_TRIGGER_MS : 0);
  const previous = useRef<ConnectorRun[] | undefined>(undefined);

  useEffect(() => {
    const before = previous.current;
    previous.current = runs.data;
    const finished = finishedRun(before, runs.data);
    if (!finished) return;
    void reloadAfterRun(tableNames);
    if (finished.status === 'succeeded')
      notify(`Run finished: ${finished.row_count ?? 0} rows fetched.`, 'success');
    else notify(`Run failed: ${finished.error ?? 'unknown error'}`, 'error');
    // The names matter only when a run ends; a new array each render must not re-run this.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [runs.data, reloadAfterRun, notify, tableNames.join(' ')]);

  return runs;
}
