import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { Relation } from 'typeorm';
import { Asset } from '../../assets/entities/asset.entity';
import { ConnectorRun } from '../../connectors/entities/connector-run.entity';

export const REFRESH_OUTCOMES = ['updated', 'unchanged', 'failed', 'schema_change'] as const;
export type RefreshOutcome = (typeof REFRESH_OUTCOMES)[number];

/** What one run of the source instance meant for a live product; each run counts once. */
@Entity({ name: 'live_product_runs' })
@Check('live_product_runs_outcome_check', `outcome IN ('updated', 'unchanged', 'failed', 'schema_change')`)
@Index('live_product_runs_asset_finished_idx', ['assetId', 'finishedAt'])
@Index('live_product_runs_asset_run_key', ['assetId', 'runId'], { unique: true })
export class LiveProductRun {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'asset_id', type: 'uuid' })
  assetId: string;

  @ManyToOne(() => Asset, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'asset_id', foreignKeyConstraintName: 'live_product_runs_asset_id_fkey' })
  asset?: Relation<Asset>;

  @Column({ name: 'run_id', type: 'uuid', nullable: true })
  runId: string | null;

  @ManyToOne(() => ConnectorRun, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'run_id', foreignKeyConstraintName: 'live_product_runs_run_id_fkey' })
  run?: Relation<ConnectorRun>;

  @Column({ name: 'finished_at', type: 'timestamptz', default: () => 'now()' })
  finishedAt: Date;

  @Column({ type: 'text' })
  outcome: RefreshOutcome;

  /** Rows of the dataset after this run (the rows kept, when it loaded nothing). */
  @Column({ name: 'row_count', type: 'bigint', default: 0 })
  rowCount: string;

  /** The run's error, for the owner only: it may carry the upstream's URLs. */
  @Column({ type: 'text', nullable: true })
  error: string | null;
}
