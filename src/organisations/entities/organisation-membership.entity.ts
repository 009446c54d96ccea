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
import { User } from '../../users/entities/user.entity';
import type { OrganisationRole } from '../organisation-role';
import { Organisation } from './organisation.entity';

/** One user's place in one organisation: at most one row per pair, so one role each. */
@Entity({ name: 'organisation_memberships' })
@Check('organisation_memberships_role_check', `role IN ('owner', 'admin', 'editor', 'viewer')`)
export class OrganisationMembership {
  @PrimaryColumn({ name: 'organisation_id', type: 'uuid' })
  organisationId: string;

  @Index('organisation_memberships_user_id_idx')
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => Organisation, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'organisation_id',
    foreignKeyConstraintName: 'organisation_memberships_organisation_id_fkey',
  })
  organisation?: Relation<Organisation>;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'organisation_memberships_user_id_fkey' })
  user?: Relation<User>;

  @Column({ type: 'text' })
  role: OrganisationRole;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
