import { Column, CreateDateColumn, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import type { Relation } from 'typeorm';
import { User } from '../../entities/user.entity';

/** A user's TOTP secret; enabledAt stays null until a first code has confirmed the setup. */
@Entity({ name: 'two_factor_credentials' })
export class TwoFactorCredential {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId: string;

  @OneToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'two_factor_credentials_user_id_fkey' })
  user?: Relation<User>;

  /** Sealed with ENCRYPTION_KEY: the secret is a credential a leaked dump must not reveal. */
  @Column({ name: 'secret_sealed', type: 'text' })
  secretSealed: string;

  @Column({ name: 'enabled_at', type: 'timestamptz', nullable: true })
  enabledAt: Date | null;

  /** The time step of the last accepted code, so a code works only once. */
  @Column({ name: 'last_time_step', type: 'bigint', nullable: true })
  lastTimeStep: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
