import {
  Column,
  CreateDateColumn,
  Entity,
  JoinColumn,
  OneToOne,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { Relation } from 'typeorm';
import { Organisation } from '../../entities/organisation.entity';

/** An organisation's OpenID Connect provider; the client secret only ever sealed (SecretBox). */
@Entity({ name: 'organisation_sso' })
export class OrganisationSso {
  @PrimaryColumn({ name: 'organisation_id', type: 'uuid' })
  organisationId: string;

  @OneToOne(() => Organisation, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organisation_id', foreignKeyConstraintName: 'organisation_sso_organisation_id_fkey' })
  organisation?: Relation<Organisation>;

  @Column({ type: 'text' })
  issuer: string;

  @Column({ name: 'client_id', type: 'text' })
  clientId: string;

  @Column({ name: 'client_secret_sealed', type: 'text', select: false })
  clientSecretSealed: string;

  /** Members at the verified domains sign in through the provider only (owners keep passwords). */
  @Column({ type: 'boolean', default: false })
  required: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
