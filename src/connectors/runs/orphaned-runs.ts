import { DataSource } from 'typeorm';

/**
 * Hands over this process's runs that a lost database connection cut off. When the primary dies
 * (or fails over to a replica), a run's writes and the record of its end fail together, so its row
 * stays `running` under this process's runner id; and once the process takes its liveness lock
 * again on the new primary, it looks alive, so no takeover would ever touch the run and its
 * instance would refuse every new run. A run of ours that we are not executing and whose heartbeat
 * is older than the lock we hold now is such a run: it is renamed to a runner id nobody holds, so
 * the takeover of the same tick treats it as a dead process's run (queued again by a worker when
 * nothing of it was committed, else marked failed), and the instance can run again.
 */
export async function releaseOrphanedRuns(
  dataSource: DataSource,
  runnerId: string,
  lockedAt: Date | undefined,
  executing: string[],
): Promise<void> {
  if (!lockedAt) return;
  await dataSource.query(
    `UPDATE connector_runs SET runner_id = runner_id || ':cut-off'
      WHERE runner_id = $1 AND status = 'running' AND heartbeat_at < $2 AND NOT (id = ANY($3::uuid[]))`,
    [runnerId, lockedAt, executing],
  );
}
