import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import type { Relation } from 'typeorm';
import { User } from '../../users/entities/user.entity';
import { Asset } from './asset.entity';

export const LOAD_MODES = ['initial', 'replace', 'append'] as const;
export type LoadMode = (typeof LOAD_MODES)[number];

/** One load of a dataset's rows: the first upload, a replacement or an append. */
@Entity({ name: 'dataset_versions' })
@Index('dataset_versions_asset_id_idx', ['assetId', 'loadedAt'])
@Check('dataset_versions_mode_check', `mode IN ('initial', 'replace', 'append')`)
export class DatasetVersion {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'asset_id', type: 'uuid' })
  assetId: string;

  @ManyToOne(() => Asset, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'asset_id', foreignKeyConstraintName: 'dataset_versions_asset_id_fkey' })
  asset?: Relation<Asset>;

  @Column({ name: 'loaded_by', type: 'uuid', nullable: true })
  loadedBy: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'loaded_by', foreignKeyConstraintName: 'dataset_versions_loaded_by_fkey' })
  loader?: Relation<User>;

  @Column({ type: 'text' })
  mode: LoadMode;

  /** Rows this load brought (for an append, the rows added). */
  @Column({ name: 'row_count', type: 'bigint' })
  rowCount: string;

  /** Bytes of the file loaded. */
  @Column({ name: 'byte_count', type: 'bigint' })
  byteCount: string;

  @CreateDateColumn({ name: 'loaded_at', type: 'timestamptz' })
  loadedAt: Date;
}
