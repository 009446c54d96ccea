import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'users' })
@Index('users_email_lower_key', { synchronize: false })
export class User {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Stored as typed; uniqueness is case-insensitive through a unique index on lower(email). */
  @Column({ type: 'text' })
  email: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ name: 'password_hash', type: 'text', select: false })
  passwordHash: string;

  @Column({ name: 'email_verified_at', type: 'timestamptz', nullable: true })
  emailVerifiedAt: Date | null;

  /** SHA-256 of the API key: lets the stream guard find the owner without storing the key itself. */
  @Index('users_api_key_hash_key', { unique: true })
  @Column({ name: 'api_key_hash', type: 'text', nullable: true, select: false })
  apiKeyHash: string | null;

  /** The API key encrypted with ENCRYPTION_KEY, so only the app can show it to its owner. */
  @Column({ name: 'api_key_encrypted', type: 'text', nullable: true, select: false })
  apiKeyEncrypted: string | null;

  /** Last time every credential of the account was ended (a password reset); older trusted-device cookies no longer count. */
  @Column({ name: 'credentials_ended_at', type: 'timestamptz', nullable: true, select: false })
  credentialsEndedAt: Date | null;

  @Column({ name: 'pro_user', type: 'boolean', default: false })
  proUser: boolean;

  @Column({ name: 'blog_editor', type: 'boolean', default: false })
  blogEditor: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
