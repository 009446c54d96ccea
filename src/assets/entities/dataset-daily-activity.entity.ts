import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { Relation } from 'typeorm';
import { Asset } from './asset.entity';

/** How much a dataset was used on one day (UTC), for its owner's activity chart. */
@Entity({ name: 'dataset_daily_activity' })
export class DatasetDailyActivity {
  @PrimaryColumn({ name: 'asset_id', type: 'uuid', primaryKeyConstraintName: 'dataset_daily_activity_pkey' })
  assetId: string;

  @PrimaryColumn({ type: 'date', primaryKeyConstraintName: 'dataset_daily_activity_pkey' })
  day: string;

  @ManyToOne(() => Asset, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'asset_id', foreignKeyConstraintName: 'dataset_daily_activity_asset_id_fkey' })
  asset?: Relation<Asset>;

  @Column({ name: 'grid_views', type: 'integer', default: 0 })
  gridViews: number;

  @Column({ name: 'stream_requests', type: 'integer', default: 0 })
  streamRequests: number;
}
