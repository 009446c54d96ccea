import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { Relation } from 'typeorm';
import type { CsvDialect } from '../../formats/readers/csv-dialect';
import { ReadableName } from '../../database/data-tables/entities/readable-name.entity';
import { Organisation } from '../../organisations/entities/organisation.entity';
import { User } from '../../users/entities/user.entity';

/** A column of a dataset's table: the safe SQL name, the header as uploaded, and the inferred type. */
export interface AssetColumn {
  name: string;
  label: string;
  type: 'integer' | 'numeric' | 'boolean' | 'date' | 'timestamp' | 'timestamptz' | 'text' | 'jsonb';
}

/** What the load found in one column, shown to buyers before they get the data. */
export interface ColumnProfile {
  name: string;
  /** Share of NULLs (no value), 0..1. */
  nullShare: number;
  /** Text only: share of empty strings (`""` in the file), 0..1; never counted as NULLs. */
  emptyStringShare?: number;
  distinctCount: number;
  /** Numbers and dates only: the smallest and largest value, as JSON renders them. */
  min?: number | string | null;
  max?: number | string | null;
  /** Text and booleans only: the most frequent values, most frequent first. */
  topValues?: Array<{ value: string; count: number }>;
}

/**
 * A dataset in the catalogue. Its rows live in the real table `data.<table_name>`; the row only
 * exists once that table is complete (ingest creates both in one transaction).
 */
export const BILLING_INTERVALS = ['month', 'year'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

@Entity({ name: 'assets' })
@Check('assets_price_check', `price >= 0`)
@Check('assets_subscriber_count_check', `subscriber_count >= 0`)
@Check('assets_billing_interval_check', `billing_interval IN ('month', 'year')`)
@Check('assets_trial_days_check', `trial_days BETWEEN 0 AND 90`)
@Index('assets_search_idx', { synchronize: false })
@Index('assets_search_document_idx', { synchronize: false })
// Partial (only datasets of an organisation): in the migration.
@Index('assets_organisation_id_idx', { synchronize: false })
export class Asset {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('assets_owner_id_idx')
  @Column({ name: 'owner_id', type: 'uuid', nullable: true })
  ownerId: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'owner_id', foreignKeyConstraintName: 'assets_owner_id_fkey' })
  owner?: Relation<User>;

  /**
   * The organisation the dataset belongs to, or null for a personal one. Its editors and above act
   * as owner, every member reads it (AccessGate); owner_id stays the uploader.
   */
  @Column({ name: 'organisation_id', type: 'uuid', nullable: true })
  organisationId: string | null;

  @ManyToOne(() => Organisation, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'organisation_id', foreignKeyConstraintName: 'assets_organisation_id_fkey' })
  organisation?: Relation<Organisation>;

  @Column({ type: 'text' })
  title: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Index('assets_category_idx')
  @Column({ type: 'text', default: 'Other' })
  category: string;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  keywords: string[];

  /** Amount in `currency`, at most two decimals; 0 means free. */
  @Column({ type: 'numeric', precision: 12, scale: 2, default: 0 })
  price: string;

  @Column({ type: 'text', default: 'USD' })
  currency: string;

  /** Null for a one-off price; 'month' or 'year' when `price` is charged again each period. */
  @Column({ name: 'billing_interval', type: 'text', nullable: true })
  billingInterval: BillingInterval | null;

  /** Free days before a new subscription's first charge (recurring prices only). */
  @Column({ name: 'trial_days', type: 'integer', default: 0 })
  trialDays: number;

  @Index('assets_is_public_idx')
  @Column({ name: 'is_public', type: 'boolean', default: true })
  isPublic: boolean;

  @Column({ type: 'text', nullable: true })
  image: string | null;

  /**
   * Set when its owner deleted or unpublished it while others had paid for it: gone from the
   * catalogue, readable by its holders and owner only.
   */
  @Column({ name: 'archived_at', type: 'timestamptz', nullable: true })
  archivedAt: Date | null;

  /** Exactly the number of users holding access; kept in step inside the grant/remove transactions. */
  @Column({ name: 'subscriber_count', type: 'integer', default: 0 })
  subscriberCount: number;

  @Column({ type: 'text', default: '' })
  source: string;

  @Column({ type: 'text', default: '' })
  author: string;

  /** Its readable name (see readable-name.ts): given by the database on insert, never changed. */
  @Index('assets_readable_name_key', { unique: true })
  @Column({ name: 'readable_name', type: 'text', update: false })
  readableName: string;

  /** Declares the foreign key to the names ever given; never loaded. */
  @ManyToOne(() => ReadableName)
  @JoinColumn({ name: 'readable_name', foreignKeyConstraintName: 'assets_readable_name_fkey' })
  readableNameEntry?: Relation<ReadableName>;

  @Index('assets_table_name_key', { unique: true })
  @Column({ name: 'table_name', type: 'text' })
  tableName: string;

  @Column({ name: 'row_count', type: 'bigint', default: 0 })
  rowCount: string;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  columns: AssetColumn[];

  /** The licence the data comes under, as the owner words it. */
  @Column({ type: 'text', default: '' })
  licence: string;

  /** The data dictionary: a description per column name, written by the owner. */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  dictionary: Record<string, string>;

  /** Computed when the rows are loaded (see column-profile.ts). */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  profile: ColumnProfile[];

  /** How the dataset's CSV files are written, kept from the upload for refreshes; null: detected. */
  @Column({ name: 'csv_dialect', type: 'jsonb', nullable: true })
  csvDialect: CsvDialect | null;

  /** Bytes of the CSV files behind the current rows. */
  @Column({ name: 'byte_count', type: 'bigint', default: 0 })
  byteCount: string;

  /** When the rows last changed (upload, replace or append). */
  @Column({ name: 'data_updated_at', type: 'timestamptz', default: () => 'now()' })
  dataUpdatedAt: Date;

  /**
   * Title and keywords (weight A) and description (weight B) as full text, kept by PostgreSQL
   * itself; searched through a GIN index and read by the ranking, never written by the app.
   */
  @Column({
    name: 'search_document',
    type: 'tsvector',
    generatedType: 'STORED',
    asExpression: 'asset_search_document(title, description, keywords)',
    select: false,
    insert: false,
    update: false,
  })
  searchDocument?: string;

  /** The data_updated_at of the rows `profile` describes: older while a profile is computed. */
  @Column({ name: 'profiled_at', type: 'timestamptz', nullable: true })
  profiledAt: Date | null;

  @Index('assets_created_at_idx')
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
