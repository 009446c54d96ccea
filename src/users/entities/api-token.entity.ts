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
import { Organisation } from '../../organisations/entities/organisation.entity';
import type { TokenScope } from '../tokens/token-scopes';
import { User } from './user.entity';

/**
 * A named API token of one integration; only its SHA-256 is stored, never the token. Revoking
 * deletes it. It belongs to a user, or to an organisation (then it acts as the organisation).
 */
@Entity({ name: 'api_tokens' })
@Check('api_tokens_one_holder_check', '(user_id IS NULL) <> (organisation_id IS NULL)')
export class ApiToken {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('api_tokens_user_id_idx')
  @Column({ name: 'user_id', type: 'uuid', nullable: true })
  userId: string | null;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'api_tokens_user_id_fkey' })
  user?: Relation<User>;

  @Index('api_tokens_organisation_id_idx', { synchronize: false })
  @Column({ name: 'organisation_id', type: 'uuid', nullable: true })
  organisationId: string | null;

  @ManyToOne(() => Organisation, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organisation_id', foreignKeyConstraintName: 'api_tokens_organisation_id_fkey' })
  organisation?: Relation<Organisation>;

  /** Who created an organisation's token; only a record, it gives the token nothing of theirs. */
  @Column({ name: 'created_by', type: 'uuid', nullable: true })
  createdBy: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'created_by', foreignKeyConstraintName: 'api_tokens_created_by_fkey' })
  creator?: Relation<User>;

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
