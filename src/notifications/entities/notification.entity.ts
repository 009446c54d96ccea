import {
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

export const NOTICE_KINDS = [
  'receipt',
  'refund',
  'dataset_archived',
  'product_stale',
  'product_recovered',
  'product_schema_change',
  'product_ended',
  'subscription_past_due',
  'subscription_ended',
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/**
 * A notice to one user, shown on their account and e-mailed to them. It is written in the same
 * transaction as the change it reports, and doubles as the mail outbox: the mailer sends what is
 * not yet mailed, so a process that dies before sending loses nothing.
 */
@Entity({ name: 'notifications' })
@Index('notifications_unmailed_idx', ['createdAt'], { where: 'mailed_at IS NULL' })
export class Notification {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('notifications_user_id_idx')
  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'notifications_user_id_fkey' })
  user?: Relation<User>;

  @Column({ type: 'text' })
  kind: NoticeKind;

  @Column({ type: 'text' })
  subject: string;

  @Column({ type: 'text' })
  text: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'mailed_at', type: 'timestamptz', nullable: true })
  mailedAt: Date | null;

  /** A mailer that took the notice owns it until then; after that another may retry it. */
  @Column({ name: 'claimed_until', type: 'timestamptz', nullable: true })
  claimedUntil: Date | null;

  @Column({ name: 'mail_attempts', type: 'int', default: 0 })
  mailAttempts: number;
}
