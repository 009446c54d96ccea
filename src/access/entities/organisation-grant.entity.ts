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
import { Organisation } from '../../organisations/entities/organisation.entity';
import { User } from '../../users/entities/user.entity';

/**
 * A dataset an organisation holds (got or bought for it by one of its editors): every member
 * reads it in full for as long as they are a member (AccessGate).
 */
@Entity({ name: 'organisation_grants' })
@Check('organisation_grants_reason_check', `reason IN ('free', 'purchase')`)
export class OrganisationGrant {
  @PrimaryColumn({ name: 'organisation_id', type: 'uuid' })
  organisationId: string;

  @Index('organisation_grants_asset_id_idx')
  @PrimaryColumn({ name: 'asset_id', type: 'uuid' })
  assetId: string;

  @ManyToOne(() => Organisation, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'organisation_id',
    foreignKeyConstraintName: 'organisation_grants_organisation_id_fkey',
  })
  organisation?: Relation<Organisation>;

  @ManyToOne(() => Asset, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'asset_id', foreignKeyConstraintName: 'organisation_grants_asset_id_fkey' })
  asset?: Relation<Asset>;

  @Column({ type: 'text' })
  reason: 'free' | 'purchase';

  /** The member who got or bought it for the organisation. */
  @Column({ name: 'granted_by', type: 'uuid', nullable: true })
  grantedBy: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'granted_by', foreignKeyConstraintName: 'organisation_grants_granted_by_fkey' })
  granter?: Relation<User>;

  @CreateDateColumn({ name: 'granted_at', type: 'timestamptz' })
  grantedAt: Date;
}
