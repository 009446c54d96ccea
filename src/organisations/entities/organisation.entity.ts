import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A team that owns things together; its members and their roles are OrganisationMembership rows. */
@Entity({ name: 'organisations' })
export class Organisation {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text' })
  name: string;

  /** Lower-case letters, digits and single hyphens; unique across organisations. */
  @Index('organisations_slug_key', { unique: true })
  @Column({ type: 'text' })
  slug: string;

  /** An https URL: the app stores no uploaded images (blog covers are URLs too). */
  @Column({ name: 'logo_url', type: 'text', nullable: true })
  logoUrl: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
