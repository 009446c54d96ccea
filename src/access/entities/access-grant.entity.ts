import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import type { Relation } from 'typeorm';
import { Asset } from '../../assets/entities/asset.entity';
import { User } from '../../users/entities/user.entity';

/** One row per user holding access to a dataset (together: a user's access list). */
@Entity({ name: 'access_grants' })
@Check('access_grants_reason_check', `reason IN ('owner', 'free', 'purchase', 'subscription')`)
export class AccessGrant {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Index('access_grants_asset_id_idx')
  @PrimaryColumn({ name: 'asset_id', type: 'uuid' })
  assetId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'access_grants_user_id_fkey' })
  user?: Relation<User>;

  @ManyToOne(() => Asset, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'asset_id', foreignKeyConstraintName: 'access_grants_asset_id_fkey' })
  asset?: Relation<Asset>;

  /**
   * How the access came about: 'owner' (uploader), 'free', 'purchase', or 'subscription' (held
   * while a subscription is in force; the access gate checks that too).
   */
  @Column({ type: 'text' })
  reason: 'owner' | 'free' | 'purchase' | 'subscription';

  @CreateDateColumn({ name: 'granted_at', type: 'timestamptz' })
  grantedAt: Date;
}
