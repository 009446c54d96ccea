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
import { User } from '../../entities/user.entity';

/** One of a user's one-time recovery codes, kept as its SHA-256. */
@Entity({ name: 'two_factor_recovery_codes' })
export class TwoFactorRecoveryCode {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('two_factor_recovery_codes_user_id_idx')
  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'two_factor_recovery_codes_user_id_fkey' })
  user?: Relation<User>;

  @Column({ name: 'code_hash', type: 'text' })
  codeHash: string;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
