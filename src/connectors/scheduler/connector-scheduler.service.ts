import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ConnectorRunsService } from '../runs/connector-runs.service';

/** Scheduled runs one process executes at once; the rest wait for a later tick or another process. */
const MAX_CONCURRENT_RUNS = 4;
const INTERVAL_NAME = 'connector-scheduler';
const QUEUE_INTERVAL_NAME = 'connector-run-queue';

/**
 * Ticks in every process that runs connectors (role all or worker, unless SCHEDULER_ENABLED=false):
 * claims due instances and runs them, and, more often, claims the runs web processes queued. At
 * start, and on every tick, runs whose process died are marked failed.
 */
@Injectable()
export class ConnectorSchedulerService implements OnApplicationBootstrap {
  private readonly logger = new Logger(ConnectorSchedulerService.name);
  private ticking = false;
  private pickingUp = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly runs: ConnectorRunsService,
    private readonly registry: SchedulerRegistry,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // A web process runs nothing: the runs of a dead worker are the workers' to take over or fail.
    if (this.config.processRole !== 'web') await this.runs.recoverAbandoned();
    if (!this.config.schedulerEnabled) return;
    const interval = setInterval(() => void this.tick(), this.config.schedulerTickSeconds * 1000);
    interval.unref();
    this.registry.addInterval(INTERVAL_NAME, interval);
    const queue = setInterval(() => void this.pickUpQueued(), this.config.runQueuePollMs);
    queue.unref();
    this.registry.addInterval(QUEUE_INTERVAL_NAME, queue);
  }

  /** Starts the runs web processes queued, as many as this process has room for; returns their ids. */
  async pickUpQueued(): Promise<string[]> {
    if (this.pickingUp) return [];
    this.pickingUp = true;
    try {
      const claimed = await this.runs.claimQueued(MAX_CONCURRENT_RUNS - this.runs.activeCount);
      for (const request of claimed) void this.runs.launch(request);
      return claimed.map((request) => request.runId);
    } catch (error) {
      this.logger.error(`Picking up queued runs failed: ${String(error)}`);
      return [];
    } finally {
      this.pickingUp = false;
    }
  }

  /** One scheduler pass; returns the ids of the runs it started. */
  async tick(): Promise<string[]> {
    if (this.ticking) return [];
    this.ticking = true;
    try {
      await this.runs.recoverAbandoned();
      const claimed = await this.runs.claimDue(MAX_CONCURRENT_RUNS - this.runs.activeCount);
      for (const request of claimed) void this.runs.launch(request);
      return claimed.map((request) => request.runId);
    } catch (error) {
      this.logger.error(`Scheduler tick failed: ${String(error)}`);
      return [];
    } finally {
      this.ticking = false;
    }
  }
}
