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
import { Organisation } from '../../entities/organisation.entity';

/**
 * An e-mail domain (lower case) an organisation's provider vouches for, once verified by the link
 * mailed to an address at it. Only the link token's SHA-256 is kept, and only until it is used.
 */
@Entity({ name: 'organisation_sso_domains' })
@Index('organisation_sso_domains_organisation_domain_key', ['organisationId', 'domain'], { unique: true })
// A verified domain belongs to one organisation (partial: in the migration).
@Index('organisation_sso_domains_verified_domain_key', { synchronize: false })
export class OrganisationSsoDomain {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'organisation_id', type: 'uuid' })
  organisationId: string;

  @ManyToOne(() => Organisation, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'organisation_id',
    foreignKeyConstraintName: 'organisation_sso_domains_organisation_id_fkey',
  })
  organisation?: Relation<Organisation>;

  @Column({ type: 'text' })
  domain: string;

  @Column({ name: 'verification_email', type: 'text' })
  verificationEmail: string;

  @Index('organisation_sso_domains_token_hash_key', { unique: true })
  @Column({ name: 'token_hash', type: 'text', nullable: true })
  tokenHash: string | null;

  @Column({ name: 'token_expires_at', type: 'timestamptz', nullable: true })
  tokenExpiresAt: Date | null;

  @Column({ name: 'verified_at', type: 'timestamptz', nullable: true })
  verifiedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
