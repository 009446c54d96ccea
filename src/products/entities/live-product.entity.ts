import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  OneToOne,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import type { Relation } from 'typeorm';
import { Asset } from '../../assets/entities/asset.entity';
import { ConnectorInstance } from '../../connectors/entities/connector-instance.entity';
import type { SchemaChange } from '../schema-change';

/**
 * A dataset published from a connector instance's table: each run of the instance loads that
 * table into the dataset as a new version, unless it would drop or retype a published column.
 */
@Entity({ name: 'live_products' })
export class LiveProduct {
  @PrimaryColumn({ name: 'asset_id', type: 'uuid' })
  assetId: string;

  @OneToOne(() => Asset, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'asset_id', foreignKeyConstraintName: 'live_products_asset_id_fkey' })
  asset?: Relation<Asset>;

  @Index('live_products_instance_id_idx')
  @Column({ name: 'instance_id', type: 'uuid' })
  instanceId: string;

  @ManyToOne(() => ConnectorInstance, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'instance_id', foreignKeyConstraintName: 'live_products_instance_id_fkey' })
  instance?: Relation<ConnectorInstance>;

  /** The instance's table (its own or a further operation's) whose rows the dataset publishes. */
  @Index('live_products_source_table_key', { unique: true })
  @Column({ name: 'source_table', type: 'text' })
  sourceTable: string;

  /** Columns refreshes added after publishing, shown as new. */
  @Column({ name: 'new_columns', type: 'text', array: true, default: () => "'{}'" })
  newColumns: string[];

  /** The last run that loaded the dataset or found nothing new; the freshness clock starts here. */
  @Column({ name: 'last_refreshed_at', type: 'timestamptz', default: () => 'now()' })
  lastRefreshedAt: Date;

  /** Set when a refresh is overdue (interval plus grace), cleared by the next good one. */
  @Column({ name: 'stale_since', type: 'timestamptz', nullable: true })
  staleSince: Date | null;

  /** What a held run would change in the published columns; null when nothing is held. */
  @Column({ name: 'pending_change', type: 'jsonb', nullable: true })
  pendingChange: SchemaChange | null;

  @Column({ name: 'pending_detected_at', type: 'timestamptz', nullable: true })
  pendingDetectedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
