import type { ResponseValidators } from '../engine/conditional-request';
import type { IncrementalState } from '../engine/run-plan';
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
import { ReadableName } from '../../database/data-tables/entities/readable-name.entity';
import { User } from '../../users/entities/user.entity';
import { Connector } from './connector.entity';

/** A user's connection to a connector: its settings and the table its runs fill. */
@Entity({ name: 'connector_instances' })
@Check('connector_instances_visibility_check', `visibility IN ('private', 'public')`)
@Check('connector_instances_refresh_interval_check', `refresh_interval >= 0`)
@Check('connector_instances_method_check', `method IN ('GET', 'POST')`)
@Index('connector_instances_due_idx', ['refreshInterval', 'lastRunStartedAt'])
export class ConnectorInstance {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('connector_instances_connector_id_idx')
  @Column({ name: 'connector_id', type: 'uuid' })
  connectorId: string;

  @ManyToOne(() => Connector, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'connector_id', foreignKeyConstraintName: 'connector_instances_connector_id_fkey' })
  connector?: Relation<Connector>;

  @Index('connector_instances_owner_id_idx')
  @Column({ name: 'owner_id', type: 'uuid' })
  ownerId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'owner_id', foreignKeyConstraintName: 'connector_instances_owner_id_fkey' })
  owner?: Relation<User>;

  @Column({ type: 'text' })
  title: string;

  @Column({ type: 'text', default: 'private' })
  visibility: 'private' | 'public';

  /** Minutes between scheduled runs; 0 means manual only. */
  @Column({ name: 'refresh_interval', type: 'integer', default: 0 })
  refreshInterval: number;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  settings: Record<string, unknown>;

  /** Setting keys whose array values each get their own request sequence. */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  iterations: string[];

  @Column({ type: 'text', default: 'GET' })
  method: 'GET' | 'POST';

  @Column({ type: 'jsonb', default: () => "'{}'" })
  headers: Record<string, string>;

  @Column({ name: 'body_template', type: 'text', nullable: true })
  bodyTemplate: string | null;

  /** auth_data encrypted with ENCRYPTION_KEY; never returned by any call. */
  @Column({ name: 'auth_data_encrypted', type: 'text', nullable: true, select: false })
  authDataEncrypted: string | null;

  /** The spec operation (stream) this instance runs; null = the first. */
  @Column({ name: 'operation_id', type: 'text', nullable: true })
  operationId: string | null;

  /** OAuth2 token obtained by exchange, encrypted with ENCRYPTION_KEY; never returned. */
  @Column({ name: 'token_cache_encrypted', type: 'text', nullable: true, select: false })
  tokenCacheEncrypted: string | null;

  /** Incremental sync: the cursor the last committed run reached (`{ cursor }`); null before the first. */
  @Column({ name: 'incremental_state', type: 'jsonb', nullable: true })
  /** `{ cursor, validators }` of the first operation, `streams.<operation id>` of each further one (see instance-operations). */
  incrementalState: {
    cursor?: string | number | null;
    validators?: ResponseValidators;
    streams?: Record<string, IncrementalState>;
  } | null;

  /** Its readable name (see readable-name.ts): given by the database on insert, never changed. */
  @Index('connector_instances_readable_name_key', { unique: true })
  @Column({ name: 'readable_name', type: 'text', update: false })
  readableName: string;

  /** Declares the foreign key to the names ever given; never loaded. */
  @ManyToOne(() => ReadableName)
  @JoinColumn({ name: 'readable_name', foreignKeyConstraintName: 'connector_instances_readable_name_fkey' })
  readableNameEntry?: Relation<ReadableName>;

  @Index('connector_instances_output_table_name_key', { unique: true })
  @Column({ name: 'output_table_name', type: 'text' })
  outputTableName: string;

  @Column({ name: 'last_run_started_at', type: 'timestamptz', nullable: true })
  lastRunStartedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
