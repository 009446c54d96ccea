import { DataSource } from 'typeorm';
import { sqlOn } from '../../database/sql';

/**
 * The queue between web and worker processes is the runs table itself: a web process records a
 * running run without a runner (the partial unique index still allows one per instance), and a
 * worker claims it by writing its runner id. Polled rather than notified, so it works through a
 * transaction-mode pooler, where LISTEN does not.
 */

export interface QueuedRun {
  id: string;
  instance_id: string;
  override: boolean;
  /** Sealed run-only settings and private values, when the run was started with some. */
  queued_request: string | null;
}

/**
 * Claims up to `limit` queued runs, oldest first, for this runner. SKIP LOCKED keeps two workers
 * from claiming the same run; the sealed request is cleared in the same statement.
 */
export async function claimQueuedRuns(
  dataSource: DataSource,
  runnerId: string,
  limit: number,
): Promise<QueuedRun[]> {
  if (limit <= 0) return [];
  const { rows } = await sqlOn(dataSource)<QueuedRun>(
    `WITH next AS (
       SELECT id, queued_request FROM connector_runs
       WHERE status = 'running' AND runner_id IS NULL
       ORDER BY started_at LIMIT $2
       FOR UPDATE SKIP LOCKED)
     UPDATE connector_runs r SET runner_id = $1, heartbeat_at = now(), queued_request = NULL
     FROM next WHERE r.id = next.id
     RETURNING r.id, r.instance_id, r.override, next.queued_request`,
    [runnerId, limit],
  );
  return rows;
}

/**
 * Waits until a run executed elsewhere has ended or `waitMs` passed, looking every `pollMs`.
 * Answers whether it ended.
 */
export async function waitForRunEnd(
  dataSource: DataSource,
  runId: string,
  waitMs: number,
  pollMs: number,
): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const { rows } = await sqlOn(dataSource)<{ status: string }>(
      `SELECT status FROM connector_runs WHERE id = $1`,
      [runId],
    );
    if (rows[0]?.status !== 'running') return true;
    const left = deadline - Date.now();
    if (left <= 0) return false;
    await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, left)));
  }
}
