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
import type { OrganisationRole } from '../organisation-role';
import { Organisation } from './organisation.entity';

export type InvitationState = 'pending' | 'accepted' | 'declined' | 'revoked';

/**
 * An invitation by e-mail to join with a role. Only the token's SHA-256 is stored; the row stays
 * after it is answered or revoked, so a used link is told apart from a made-up one.
 */
@Entity({ name: 'organisation_invitations' })
@Check('organisation_invitations_role_check', `role IN ('owner', 'admin', 'editor', 'viewer')`)
@Check('organisation_invitations_state_check', `state IN ('pending', 'accepted', 'declined', 'revoked')`)
// One pending invitation per address and organisation (partial, on lower(email): in the migration).
@Index('organisation_invitations_pending_email_key', { synchronize: false })
export class OrganisationInvitation {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'organisation_id', type: 'uuid' })
  organisationId: string;

  @ManyToOne(() => Organisation, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'organisation_id',
    foreignKeyConstraintName: 'organisation_invitations_organisation_id_fkey',
  })
  organisation?: Relation<Organisation>;

  @Column({ type: 'text' })
  email: string;

  @Column({ type: 'text' })
  role: OrganisationRole;

  @Index('organisation_invitations_token_hash_key', { unique: true })
  @Column({ name: 'token_hash', type: 'text' })
  tokenHash: string;

  @Column({ name: 'invited_by', type: 'uuid', nullable: true })
  invitedBy: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'invited_by', foreignKeyConstraintName: 'organisation_invitations_invited_by_fkey' })
  inviter?: Relation<User>;

  @Column({ type: 'text', default: 'pending' })
  state: InvitationState;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'answered_at', type: 'timestamptz', nullable: true })
  answeredAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
