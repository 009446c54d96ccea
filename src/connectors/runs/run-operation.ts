import { Logger } from '@nestjs/common';
import { ConnectorInstancesService } from '../connector-instances.service';
import { ConnectorEngine, newProgress } from '../engine/connector-engine';
import { ConnectorFetchError } from '../engine/connector-fetch-error';
import { ConnectorTableWriter, InstanceRemovedError } from '../engine/connector-table-writer';
import { printable } from '../engine/http-errors';
import { nextState } from '../engine/incremental';
import { prefetch } from '../engine/prefetch';
import { MissingKeyError } from '../engine/record-columns';
import { Connector } from '../entities/connector.entity';
import { ConnectorInstance } from '../entities/connector-instance.entity';
import { RunOperationOutcome } from '../entities/connector-run.entity';
import { operationStateOf, saveOperationState } from '../instance-operations';
import { buildRunPlan, primaryKeyOf } from './build-run-plan';
import { redactSecrets, secretsOfRun } from './redact-secrets';

/** What one run executes: its id, whether it replaces the rows, and its run-only settings. */
export interface OperationRequest {
  runId: string;
  override: boolean;
  settings?: Record<string, unknown>;
}

/** One operation's table and credentials; the instance's first operation keeps the top-level state. */
export interface OperationTarget {
  tableName: string;
  authData: Record<string, string>;
  primary: boolean;
  operationId: string | null;
}

/**
 * Pages fetched ahead of the one being written: fetching overlaps writing, and no more than
 * these are held in memory, whatever the size of the run.
 */
const PAGES_AHEAD = 2;

/**
 * Executes one operation of a run: builds its plan, streams its pages from the engine into the
 * table writer, and answers its outcome for the run history. Never throws.
 */
export class RunOperationExecutor {
  private readonly logger = new Logger(RunOperationExecutor.name);

  constructor(
    private readonly engine: ConnectorEngine,
    private readonly writer: ConnectorTableWriter,
    private readonly instances: ConnectorInstancesService,
  ) {}

  /** Fetches and writes one operation of a run into its table; never throws. */
  async execute(
    request: OperationRequest,
    connector: Connector,
    instance: ConnectorInstance,
    target: OperationTarget,
  ): Promise<RunOperationOutcome> {
    const progress = newProgress();
    const base = { operation_id: instance.operationId, output_table_name: target.tableName };
    try {
      const plan = buildRunPlan(
        connector,
        // Each operation keeps its own incremental state; the instance's first keeps the top-level one.
        {
          ...instance,
          incrementalState: operationStateOf(instance, target.primary ? null : target.operationId),
        },
        request.settings ?? instance.settings,
        target.authData,
        this.instances.tokenStoreOf(instance.id),
      );
      const incremental = plan.incremental;
      const rowCount = await this.writer.write({
        tableName: target.tableName,
        runId: request.runId,
        // An incremental run holds only what changed: it adds to the table, never replaces it.
        override: incremental ? false : request.override,
        pages: prefetch(this.engine.pages(plan, progress), PAGES_AHEAD),
        primaryKey: primaryKeyOf(connector, instance),
        // The cursor advances in the transaction that makes the rows visible, never without them.
        onCommit:
          incremental || plan.conditional
            ? async (sql) => {
                const state = {
                  ...(incremental
                    ? nextState(incremental, plan.state, progress.cursor, progress.capped)
                    : {}),
                  ...(progress.validators ? { validators: progress.validators } : {}),
                };
                if (Object.keys(state).length > 0)
                  await saveOperationState(
                    sql,
                    instance.id,
                    target.primary ? null : target.operationId,
                    state,
                  );
              }
            : undefined,
        unchanged: () => progress.unchanged === true,
      });
      const warning = progress.warnings.length > 0 ? printable(progress.warnings.join(' ')) : null;
      return {
        ...base,
        status: 'succeeded',
        row_count: rowCount,
        pages_fetched: progress.pages,
        error: null,
        warning,
      };
    } catch (error) {
      const message = this.describeFailure(
        error,
        request.runId,
        secretsOfRun(target.authData, progress.obtainedTokens),
      );
      return {
        ...base,
        status: 'failed',
        row_count: 0,
        pages_fetched: progress.pages,
        error: message,
        warning: null,
      };
    }
  }

  /**
   * The failure as the run history shows it; credentials are masked before it is logged or kept,
   * control characters (a NUL quoted from a binary answer) too: the run's end must be recordable.
   */
  describeFailure(error: unknown, runId: string, secrets: string[]): string {
    return printable(this.failureText(error, runId, secrets));
  }

  private failureText(error: unknown, runId: string, secrets: string[]): string {
    if (
      error instanceof ConnectorFetchError ||
      error instanceof InstanceRemovedError ||
      error instanceof MissingKeyError
    )
      return redactSecrets(error.message, secrets);
    const message = redactSecrets(error instanceof Error ? error.message : String(error), secrets);
    this.logger.error(`Connector run ${runId} failed while storing rows: ${message}`);
    return `Could not store the fetched rows: ${message}`;
  }
}
