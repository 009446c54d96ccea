import { randomUUID } from 'node:crypto';
import {
  BadGatewayException,
  BeforeApplicationShutdown,
  ConflictException,
  Inject,
  Injectable,
  Logger,
  OnApplicationShutdown,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccessGate } from '../../access/access-gate.service';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import type { AuthenticatedUser } from '../../common/decorators/current-user.decorator';
import { SecretBox } from '../../common/crypto/secret-box';
import { dedicatedClient, isUniqueViolation } from '../../database/sql';
import { toRunView, RunView } from '../run-views';
import { ConnectorInstancesService } from '../connector-instances.service';
import { ConnectorEngine } from '../engine/connector-engine';
import { ConnectorTableWriter } from '../engine/connector-table-writer';
import { printable } from '../engine/http-errors';
import { Connector } from '../entities/connector.entity';
import { ConnectorInstance } from '../entities/connector-instance.entity';
import { ConnectorRun, RunOperationOutcome } from '../entities/connector-run.entity';
import { furtherTablesOf, instanceTargets } from '../instance-operations';
import { prepareInstanceSettings } from '../instance-settings-rules';
import { RunOperationExecutor } from './run-operation';
import { ConnectorLifecycle } from './run-end-listeners';
import { summarise } from './run-summary';
import { claimQueuedRuns, waitForRunEnd } from './run-queue';
import { releaseOrphanedRuns } from './orphaned-runs';
import { requeueAbandoned } from './run-takeover';
import { RUNNER_ALIVE_SQL, RunnerLiveness } from './runner-liveness';

export const RUN_IN_PROGRESS = 'A run is already in progress for this connector';
const HEARTBEAT_MS = 10_000;
const INTERRUPTED = 'Run interrupted: the process running it stopped before it finished';

/** Run Now's answer: the finished run, or the id of a run still going after the wait. */
export type RunNowAnswer =
  { rowCount: number; run_id: string; warning: string | null } | { run_id: string; status: 'running' };

export interface RunRequest {
  runId: string;
  instanceId: string;
  override: boolean;
  /** Settings for this run only (Run Now with the form's current values). */
  settings?: Record<string, unknown>;
  authData?: Record<string, string>;
}

/** Run-only settings of a queued background run, sealed in the run row until a worker claims it. */
type QueuedRequest = Pick<RunRequest, 'settings' | 'authData'>;

/**
 * Starts, executes and records connector runs. A partial unique index allows one running run
 * per instance; runs carry this process's runner id, whose liveness lock lets the next process
 * that looks mark the runs of a dead process failed. A web process executes nothing: it queues
 * its runs (see run-queue.ts) for a worker.
 */
@Injectable()
export class ConnectorRunsService implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger(ConnectorRunsService.name);
  /** Identifies this process on the runs it executes. */
  readonly runnerId = randomUUID();
  /** Background runs, awaited (bounded) at shutdown. */
  private readonly launched = new Map<string, Promise<void>>();
  /** Every run this process is executing, background or synchronous: they get heartbeats. */
  private readonly executing = new Set<string>();
  private heartbeat?: NodeJS.Timeout;
  private readonly liveness: RunnerLiveness;
  private readonly operations: RunOperationExecutor;

  constructor(
    private readonly dataSource: DataSource,
    private readonly engine: ConnectorEngine,
    private readonly writer: ConnectorTableWriter,
    @Inject(ConnectorInstancesService) private readonly instances: ConnectorInstancesService,
    private readonly gate: AccessGate,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly secretBox: SecretBox,
    private readonly lifecycle: ConnectorLifecycle,
  ) {
    this.liveness = new RunnerLiveness(() => dedicatedClient(dataSource, 'connector-runner'), this.runnerId);
    this.operations = new RunOperationExecutor(engine, writer, instances);
  }

  get activeCount(): number {
    return this.executing.size;
  }

  /** Whether this process queues its manual runs for a worker instead of executing them. */
  get queuesRuns(): boolean {
    return this.config.processRole === 'web';
  }

  /**
   * Records a new running run, this process's or (in a web process) queued without a runner;
   * 409 when one is already running for the instance.
   */
  async start(
    instanceId: string,
    trigger: 'manual' | 'schedule',
    override: boolean,
    queued: QueuedRequest = {},
  ): Promise<ConnectorRun> {
    if (!this.queuesRuns) await this.liveness.hold();
    const sealed =
      this.queuesRuns && (queued.settings || queued.authData)
        ? this.secretBox.seal(JSON.stringify(queued))
        : null;
    try {
      return await this.dataSource.transaction(async (manager) => {
        const [row] = await manager.query(
          `INSERT INTO connector_runs (instance_id, trigger, override, runner_id, heartbeat_at, queued_request)
           VALUES ($1, $2, $3, $4, now(), $5) RETURNING id`,
          [instanceId, trigger, override, this.queuesRuns ? null : this.runnerId, sealed],
        );
        await manager.query(`UPDATE connector_instances SET last_run_started_at = now() WHERE id = $1`, [
          instanceId,
        ]);
        return manager.getRepository(ConnectorRun).findOneByOrFail({ id: row.id });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictException(RUN_IN_PROGRESS);
      throw error;
    }
  }

  /** Manual run in the background: answers at once with the run id. */
  async startInBackground(
    user: AuthenticatedUser,
    instanceId: string,
    input: { settings?: Record<string, unknown>; override?: boolean },
  ): Promise<{ run_id: string; status: 'running' }> {
    const instance = await this.gate.requireInstance(user, instanceId);
    const request = await this.prepareOverride(instance, input);
    const run = await this.start(instance.id, 'manual', request.override, request);
    if (!this.queuesRuns) void this.launch({ ...request, runId: run.id, instanceId: instance.id });
    return { run_id: run.id, status: 'running' };
  }

  /**
   * Manual run awaited to its end (Manage tab's Refresh), but not for longer than the configured
   * wait: a run that outlasts it goes on in the background and the answer is its id, for the
   * client to follow in the run history.
   */
  async runNow(user: AuthenticatedUser, instanceId: string): Promise<RunNowAnswer> {
    const instance = await this.gate.requireInstance(user, instanceId);
    const run = await this.start(instance.id, 'manual', instance.settings?.override === true);
    const waitMs = this.config.runNowWaitSeconds * 1000;
    const ended = this.queuesRuns
      ? await waitForRunEnd(this.dataSource, run.id, waitMs, this.config.runQueuePollMs)
      : await this.launchAndWait({ runId: run.id, instanceId: instance.id, override: run.override }, waitMs);
    if (!ended) return { run_id: run.id, status: 'running' };
    const finished = await this.dataSource.getRepository(ConnectorRun).findOneByOrFail({ id: run.id });
    if (finished.status !== 'succeeded')
      throw new BadGatewayException(`Run failed: ${finished.error ?? 'unknown error'}`);
    return { rowCount: finished.rowCount, run_id: finished.id, warning: finished.warning ?? null };
  }

  /** Launches a run of this process and answers whether it ended within `waitMs`. */
  private async launchAndWait(request: RunRequest, waitMs: number): Promise<boolean> {
    const done = this.launch(request).then(() => true);
    let timer: NodeJS.Timeout | undefined;
    const outlasted = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), waitMs);
    });
    return Promise.race([done, outlasted]).finally(() => clearTimeout(timer));
  }

  /** Claims runs queued by web processes for this process to execute (see run-queue.ts). */
  async claimQueued(limit: number): Promise<RunRequest[]> {
    if (limit <= 0) return [];
    // Held before the claim, so no other process ever sees a claimed run without a live runner.
    await this.liveness.hold();
    const claimed = await claimQueuedRuns(this.dataSource, this.runnerId, limit);
    return claimed.map((run) => ({
      runId: run.id,
      instanceId: run.instance_id,
      override: run.override,
      ...(run.queued_request ? (JSON.parse(this.secretBox.open(run.queued_request)) as QueuedRequest) : {}),
    }));
  }

  /**
   * Forgets an incremental instance's cursor: the next run reads again from the start value. Refused
   * while a run is going (its commit would write the state back).
   */
  async resetState(user: AuthenticatedUser, instanceId: string): Promise<{ state: null }> {
    const instance = await this.gate.requireInstance(user, instanceId);
    const result: [unknown[], number] = await this.dataSource.query(
      `UPDATE connector_instances SET incremental_state = NULL
       WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM connector_runs WHERE instance_id = $1 AND status = 'running')`,
      [instance.id],
    );
    if (result[1] === 0) throw new ConflictException(RUN_IN_PROGRESS);
    return { state: null };
  }

  async history(user: AuthenticatedUser, instanceId: string): Promise<RunView[]> {
    const instance = await this.gate.requireInstance(user, instanceId);
    const runs = await this.dataSource
      .getRepository(ConnectorRun)
      .find({ where: { instanceId: instance.id }, order: { startedAt: 'DESC', id: 'DESC' }, take: 200 });
    return runs.map(toRunView);
  }

  /**
   * Claims due scheduled instances (interval > 0, last start older than it, nothing running)
   * with FOR UPDATE SKIP LOCKED: concurrent processes never claim the same instance, and the
   * last start moves in the same transaction, so each due refresh runs exactly once.
   */
  async claimDue(limit: number): Promise<RunRequest[]> {
    if (limit <= 0) return [];
    return this.dataSource.transaction(async (manager) => {
      const due: Array<{ id: string; override: boolean }> = await manager.query(
        `SELECT i.id, coalesce(i.settings -> 'override' = 'true'::jsonb, false) AS override
         FROM connector_instances i
         WHERE i.refresh_interval > 0
           AND (i.last_run_started_at IS NULL
                OR i.last_run_started_at <= now() - make_interval(mins => i.refresh_interval))
           AND NOT EXISTS (SELECT 1 FROM connector_runs r WHERE r.instance_id = i.id AND r.status = 'running')
         ORDER BY i.last_run_started_at NULLS FIRST
         LIMIT $1
         FOR UPDATE OF i SKIP LOCKED`,
        [limit],
      );
      if (due.length === 0) return [];
      await this.liveness.hold();
      const ids = due.map((row) => row.id);
      await manager.query(`UPDATE connector_instances SET last_run_started_at = now() WHERE id = ANY($1)`, [
        ids,
      ]);
      const runs: Array<{ id: string; instance_id: string; override: boolean }> = await manager.query(
        `INSERT INTO connector_runs (instance_id, trigger, override, runner_id, heartbeat_at)
         SELECT due.id, 'schedule', due.override, $3, now()
         FROM unnest($1::uuid[], $2::boolean[]) AS due(id, override)
         ON CONFLICT (instance_id) WHERE status = 'running' DO NOTHING
         RETURNING id, instance_id, override`,
        [ids, due.map((row) => row.override), this.runnerId],
      );
      return runs.map((run) => ({ runId: run.id, instanceId: run.instance_id, override: run.override }));
    });
  }

  /**
   * Marks failed every running run whose process is gone (its liveness lock released), and drops
   * its staging tables; a worker first queues again those of which nothing was committed
   * (run-takeover.ts). This process's own runs are alive by definition. The heartbeat's age is no
   * evidence: a process starved of CPU misses beats while its runs go on, whereas the lock goes
   * only with the process's database connection.
   */
  async recoverAbandoned(): Promise<number> {
    await releaseOrphanedRuns(this.dataSource, this.runnerId, this.liveness.lockedAt, [...this.executing]);
    // A worker gives another worker the chance to run again what a dead one left uncommitted.
    if (this.config.processRole === 'worker') {
      const requeued = await requeueAbandoned(this.dataSource, this.runnerId, (tableName, runId) =>
        this.writer.dropStaging(tableName, runId),
      );
      if (requeued.length > 0)
        this.logger.warn(`Queued again ${requeued.length} connector run(s) whose worker stopped`);
    }
    // Wrapped in a CTE so the driver answers the rows (a bare UPDATE answers [rows, count]).
    const rows: Array<{ id: string; table_names: string[] }> = await this.dataSource.query(
      `WITH failed AS (
         UPDATE connector_runs r SET status = 'failed', finished_at = now(), error = $1
         FROM connector_instances i
         WHERE r.instance_id = i.id AND r.status = 'running'
           AND r.runner_id IS NOT NULL AND r.runner_id <> $2 AND NOT ${RUNNER_ALIVE_SQL}
         RETURNING r.id, r.instance_id, i.output_table_name)
       SELECT f.id, array_prepend(f.output_table_name,
                ARRAY(SELECT t.output_table_name FROM connector_instance_tables t WHERE t.instance_id = f.instance_id)
              ) AS table_names
       FROM failed f`,
      [INTERRUPTED, this.runnerId],
    );
    for (const row of rows)
      for (const tableName of row.table_names)
        await this.writer.dropStaging(tableName, row.id).catch(() => undefined);
    if (rows.length > 0) this.logger.warn(`Marked ${rows.length} interrupted connector run(s) as failed`);
    return rows.length;
  }

  /** Executes a claimed or started run without waiting for it; the promise tells when it ended. */
  launch(request: RunRequest): Promise<void> {
    const done = this.execute(request).finally(() => this.launched.delete(request.runId));
    this.launched.set(request.runId, done);
    return done;
  }

  /** Fetches, writes and records the outcome of one run; never throws. */
  async execute(request: RunRequest): Promise<void> {
    this.executing.add(request.runId);
    try {
      await this.executeTracked(request);
    } finally {
      this.executing.delete(request.runId);
    }
  }

  private async executeTracked(request: RunRequest): Promise<void> {
    this.startHeartbeat();
    const outcomes: RunOperationOutcome[] = [];
    let setupError: string | null = null;
    try {
      const instance = await this.dataSource
        .getRepository(ConnectorInstance)
        .findOneByOrFail({ id: request.instanceId });
      const connector = await this.dataSource
        .getRepository(Connector)
        .findOneByOrFail({ id: instance.connectorId });
      const authData = { ...(await this.instances.authDataOf(instance.id)), ...(request.authData ?? {}) };
      const further = (await furtherTablesOf(this.dataSource.manager, [instance.id])).get(instance.id) ?? [];
      // Each operation writes its own table atomically; one failing does not keep the others from running.
      for (const [index, target] of instanceTargets(connector, instance, further).entries()) {
        outcomes.push(
          await this.operations.execute(
            request,
            connector,
            { ...instance, operationId: target.operationId },
            {
              tableName: target.tableName,
              authData,
              primary: index === 0,
              operationId: target.operationId,
            },
          ),
        );
      }
    } catch (error) {
      setupError = this.operations.describeFailure(error, request.runId, []);
    }
    const summary = summarise(outcomes, setupError);
    const recorded = await this.recordEnd(request.runId, summary, outcomes).catch((error: unknown) => error);
    if (recorded === undefined) {
      // Inside the run's own life: Run Now answers, and shutdown waits, only once the listeners are done.
      await this.lifecycle.runEnded({ runId: request.runId, instanceId: request.instanceId });
      return;
    }
    // The outcome itself could not be stored: the run still ends, failed, with the reason why.
    const cause = printable(String(recorded));
    this.logger.error(`Could not record the end of run ${request.runId}: ${cause}`);
    const fallback = { ...summary, status: 'failed' as const, rowCount: 0, warning: null };
    fallback.error = `Could not record the run's outcome (${cause}); ${summary.error ?? 'the rows were stored'}`;
    await this.recordEnd(request.runId, fallback, []).catch((error) =>
      this.logger.error(`Could not record the end of run ${request.runId}: ${printable(String(error))}`),
    );
  }

  private async recordEnd(
    runId: string,
    summary: ReturnType<typeof summarise>,
    outcomes: RunOperationOutcome[],
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE connector_runs
       SET status = $2, finished_at = now(), row_count = $3, pages_fetched = $4, error = $5, warning = $6,
           operations = $7
       WHERE id = $1`,
      [
        runId,
        summary.status,
        summary.rowCount,
        summary.pages,
        summary.error,
        summary.warning,
        JSON.stringify(outcomes),
      ],
    );
  }

  /**
   * Run-only settings, held to the same rules as saved ones (required fields filled): private
   * values become auth data for this run, `override` is read out. Nothing is saved.
   */
  private async prepareOverride(
    instance: ConnectorInstance,
    input: { settings?: Record<string, unknown>; override?: boolean },
  ): Promise<Omit<RunRequest, 'runId' | 'instanceId'>> {
    const settingsOverride = input.settings?.override;
    const override =
      input.override ??
      (typeof settingsOverride === 'boolean' ? settingsOverride : instance.settings?.override === true);
    if (!input.settings) return { override };
    const connector = await this.dataSource
      .getRepository(Connector)
      .findOneByOrFail({ id: instance.connectorId });
    const storedAuth = await this.instances.authDataOf(instance.id);
    const prepared = prepareInstanceSettings(connector, { settings: input.settings }, {}, storedAuth);
    return { override, settings: prepared.settings, authData: prepared.authData };
  }

  /**
   * Every 10 s while runs go on: takes the liveness lock again if its connection was lost, and
   * stamps the runs' heartbeat, which only tells a person a hung process (old heartbeat, lock still
   * held) from a busy one; liveness is never judged by it.
   */
  private startHeartbeat(): void {
    if (this.heartbeat) return;
    this.heartbeat = setInterval(() => {
      if (this.executing.size === 0) return;
      // Takes the lock again if its connection was lost (e.g. the database restarted).
      this.liveness
        .hold()
        .catch((error) => this.logger.warn(`Runner liveness lock failed: ${String(error)}`));
      this.dataSource
        // Only the runs executing here: one cut off by a lost database keeps its old heartbeat (orphaned-runs.ts).
        .query(`UPDATE connector_runs SET heartbeat_at = now() WHERE id = ANY($1) AND status = 'running'`, [
          [...this.executing],
        ])
        .catch((error) => this.logger.warn(`Run heartbeat failed: ${String(error)}`));
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Lets runs in flight finish (bounded) before the database connection closes. */
  async beforeApplicationShutdown(): Promise<void> {
    const pending = [...this.launched.values()];
    if (pending.length === 0) return;
    await Promise.race([
      Promise.allSettled(pending),
      new Promise((resolve) => setTimeout(resolve, 10_000).unref()),
    ]);
  }

  /**
   * Only after the runs in flight had their chance to finish (Nest calls this after
   * beforeApplicationShutdown): the HTTP client closes and other processes may now treat any run
   * still left running as dead.
   */
  async onApplicationShutdown(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.engine.destroy();
    await this.liveness.release();
  }
}
