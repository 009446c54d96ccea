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
import { ReadableName } from '../../database/data-tables/entities/readable-name.entity';
import { ConnectorInstance } from './connector-instance.entity';

/**
 * A further operation an instance runs, beside the one writing the instance's own table: the
 * operation and the table its rows go to.
 */
@Entity({ name: 'connector_instance_tables' })
@Index('connector_instance_tables_instance_operation_key', ['instanceId', 'operationId'], { unique: true })
export class ConnectorInstanceTable {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'instance_id', type: 'uuid' })
  instanceId: string;

  @ManyToOne(() => ConnectorInstance, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'instance_id', foreignKeyConstraintName: 'connector_instance_tables_instance_id_fkey' })
  instance?: Relation<ConnectorInstance>;

  @Column({ name: 'operation_id', type: 'text' })
  operationId: string;

  /** Its readable name (see readable-name.ts): given by the database on insert, never changed. */
  @Index('connector_instance_tables_readable_name_key', { unique: true })
  @Column({ name: 'readable_name', type: 'text', update: false })
  readableName: string;

  /** Declares the foreign key to the names ever given; never loaded. */
  @ManyToOne(() => ReadableName)
  @JoinColumn({
    name: 'readable_name',
    foreignKeyConstraintName: 'connector_instance_tables_readable_name_fkey',
  })
  readableNameEntry?: Relation<ReadableName>;

  @Index('connector_instance_tables_output_table_name_key', { unique: true })
  @Column({ name: 'output_table_name', type: 'text' })
  outputTableName: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
