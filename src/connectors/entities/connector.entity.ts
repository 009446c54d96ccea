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
import { User } from '../../users/entities/user.entity';

/** A field of a connector's settings form (`schema.fields`); groups nest further fields. */
export interface SchemaField {
  key: string;
  label?: string;
  type: 'text' | 'number' | 'date' | 'bool' | 'boolean' | 'select' | 'group';
  options?: Array<string | { label: string; value: string | number | boolean }>;
  fields?: SchemaField[];
  /** Show the field only when every listed key currently holds the given value (or one of the values). */
  conditions?: Record<string, unknown>;
  private?: boolean;
  include?: boolean;
  required?: boolean;
  default?: unknown;
  /** An operation id, a path or URL template, or that with response and option key mapping. */
  options_endpoint?:
    | string
    | { operation?: string; url?: string; response_path?: string; value_key?: string; label_key?: string };
  depends_on?: string[];
  description?: string;
}

export interface AuthField {
  label: string;
  key: string;
  required?: boolean;
}

/** An API connector: a URL template plus the fields a user fills to pull rows into a table. */
@Entity({ name: 'connectors' })
@Check('connectors_price_check', `price >= 0`)
@Check('connectors_subscriber_count_check', `subscriber_count >= 0`)
export class Connector {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('connectors_owner_id_idx')
  @Column({ name: 'owner_id', type: 'uuid', nullable: true })
  ownerId: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'owner_id', foreignKeyConstraintName: 'connectors_owner_id_fkey' })
  owner?: Relation<User>;

  @Column({ type: 'text' })
  title: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'text', default: 'API' })
  category: string;

  @Column({ type: 'numeric', precision: 12, scale: 2, default: 0 })
  price: string;

  @Column({ name: 'is_public', type: 'boolean', default: true })
  isPublic: boolean;

  @Column({ type: 'text', nullable: true })
  image: string | null;

  @Column({ type: 'text', default: '' })
  source: string;

  @Column({ type: 'text', default: '' })
  author: string;

  /** URL with {{placeholder}} slots filled from settings at run time. */
  @Column({ name: 'fetch_url_template', type: 'text' })
  fetchUrlTemplate: string;

  @Column({ type: 'jsonb', default: () => `'{"fields": []}'` })
  schema: { fields: SchemaField[] };

  @Column({ name: 'specification_schema', type: 'jsonb', default: () => `'{"fields": []}'` })
  specificationSchema: { fields: SchemaField[] };

  @Column({ name: 'auth_fields', type: 'jsonb', default: () => "'[]'" })
  authFields: AuthField[];

  /** The uploaded connector DSL document this connector was built from, when it came from an upload. */
  @Column({ type: 'jsonb', nullable: true })
  spec: Record<string, unknown> | null;

  /** Number of active instances. */
  @Column({ name: 'subscriber_count', type: 'integer', default: 0 })
  subscriberCount: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
