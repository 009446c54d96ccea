import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { Relation } from 'typeorm';
import { ConnectorInstance } from './connector-instance.entity';

export type RunStatus = 'running' | 'succeeded' | 'failed';

/** The outcome of one operation of a run (an instance may run several, each into its own table). */
export interface RunOperationOutcome {
  operation_id: string | null;
  output_table_name: string;
  status: 'succeeded' | 'failed';
  row_count: number;
  pages_fetched: number;
  error: string | null;
  warning: string | null;
}

/** One execution of a connector instance, kept for the run history. */
@Entity({ name: 'connector_runs' })
@Check('connector_runs_trigger_check', `trigger IN ('manual', 'schedule')`)
@Check('connector_runs_status_check', `status IN ('running', 'succeeded', 'failed')`)
@Index('connector_runs_instance_started_idx', ['instanceId', 'startedAt'])
// Partial unique index (status = 'running') created by migration 1795282000000; TypeORM cannot diff its predicate.
@Index('connector_runs_one_running_key', { synchronize: false })
// Partial index of the runs waiting for a worker (migration 1796013000000), same reason.
@Index('connector_runs_queued_idx', { synchronize: false })
export class ConnectorRun {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'instance_id', type: 'uuid' })
  instanceId: string;

  @ManyToOne(() => ConnectorInstance, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'instance_id', foreignKeyConstraintName: 'connector_runs_instance_id_fkey' })
  instance?: Relation<ConnectorInstance>;

  @Column({ type: 'text' })
  trigger: 'manual' | 'schedule';

  @Index('connector_runs_status_idx')
  @Column({ type: 'text', default: 'running' })
  status: RunStatus;

  @Column({ type: 'boolean', default: false })
  override: boolean;

  @Column({ name: 'started_at', type: 'timestamptz', default: () => 'now()' })
  startedAt: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt: Date | null;

  @Column({ name: 'row_count', type: 'integer', default: 0 })
  rowCount: number;

  @Column({ name: 'pages_fetched', type: 'integer', default: 0 })
  pagesFetched: number;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  /** Why a succeeded run may not hold everything the upstream has (a cap stopped it). */
  @Column({ type: 'text', nullable: true })
  warning: string | null;

  /** Per operation of the run, in the order they ran; empty for runs from before it was recorded. */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  operations: RunOperationOutcome[];

  /** Boot id of the process executing the run; null while it waits for a worker (run-queue.ts). */
  @Column({ name: 'runner_id', type: 'text', nullable: true })
  runnerId: string | null;

  /** Run-only settings of a queued run, sealed; cleared when a worker claims it. */
  @Column({ name: 'queued_request', type: 'text', nullable: true, select: false })
  queuedRequest: string | null;

  /** Workers that have started the run (run-takeover.ts). */
  @Column({ type: 'integer', default: 1 })
  attempts: number;

  /**
   * Refreshed while the run's process runs it, for people diagnosing a hung process; whether the
   * process is alive is told by its liveness lock, never by this (a starved process misses beats).
   */
  @Column({ name: 'heartbeat_at', type: 'timestamptz', nullable: true })
  heartbeatAt: Date | null;
}
