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

/** A single-use link (deleted when used) that lets one browser sign in to a locked account. */
@Entity({ name: 'login_unlock_tokens' })
export class LoginUnlockToken {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('login_unlock_tokens_user_id_idx')
  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'login_unlock_tokens_user_id_fkey' })
  user?: Relation<User>;

  /** Only the token's SHA-256 is stored: a leaked table opens nothing. */
  @Index('login_unlock_tokens_token_hash_key', { unique: true })
  @Column({ name: 'token_hash', type: 'text' })
  tokenHash: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
