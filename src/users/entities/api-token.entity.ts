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
import type { TokenScope } from '../tokens/token-scopes';
import { User } from './user.entity';

/** A named API token of one integration; only its SHA-256 is stored, never the token. Revoking deletes it. */
@Entity({ name: 'api_tokens' })
export class ApiToken {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('api_tokens_user_id_idx')
  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'api_tokens_user_id_fkey' })
  user?: Relation<User>;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text', array: true })
  scopes: TokenScope[];

  @Index('api_tokens_token_hash_key', { unique: true })
  @Column({ name: 'token_hash', type: 'text', select: false })
  tokenHash: string;

  /** The token's first characters, so its owner can tell tokens apart in the list. */
  @Column({ name: 'token_hint', type: 'text' })
  tokenHint: string;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
