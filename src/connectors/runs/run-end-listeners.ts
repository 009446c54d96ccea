import { Injectable, Logger } from '@nestjs/common';
import type { Sql } from '../../database/sql';

/** Reacts to a recorded run end; `runId` is finished (succeeded or failed) when it is called. */
export type RunEndListener = (run: { runId: string; instanceId: string }) => Promise<void>;

/**
 * Refuses (by throwing) the removal of connector instances, inside the removal's transaction,
 * before anything is deleted; it may lock what it reads.
 */
export type InstanceRemovalCheck = (sql: Sql, instanceIds: string[]) => Promise<void>;

/**
 * Where modules that build on connector runs (live products) plug in, so that the connectors
 * module never depends on them: they are told when a run has ended, and may refuse the removal of
 * an instance they depend on.
 */
@Injectable()
export class ConnectorLifecycle {
  private readonly logger = new Logger(ConnectorLifecycle.name);
  private readonly runEndListeners: RunEndListener[] = [];
  private readonly removalChecks: InstanceRemovalCheck[] = [];

  onRunEnded(listener: RunEndListener): void {
    this.runEndListeners.push(listener);
  }

  onInstanceRemoval(check: InstanceRemovalCheck): void {
    this.removalChecks.push(check);
  }

  /** Tells every listener; a listener's failure is logged and never fails the run. */
  async runEnded(run: { runId: string; instanceId: string }): Promise<void> {
    for (const listener of this.runEndListeners) {
      await listener(run).catch((error: unknown) =>
        this.logger.error(
          `After run ${run.runId}: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    }
  }

  async checkRemoval(sql: Sql, instanceIds: string[]): Promise<void> {
    if (instanceIds.length === 0) return;
    for (const check of this.removalChecks) await check(sql, instanceIds);
  }
}
