import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { Relation } from 'typeorm';
import { User } from '../../../users/entities/user.entity';

/** One query a user ran, as the server saw it: how long it took and how many rows, or why it failed. */
@Entity({ name: 'query_history' })
@Index('query_history_user_started_idx', ['userId', 'startedAt'])
export class QueryHistoryEntry {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'query_history_user_id_fkey' })
  user?: Relation<User>;

  @Column({ type: 'text' })
  sql: string;

  @Column({ name: 'started_at', type: 'timestamptz' })
  startedAt: Date;

  @Column({ name: 'elapsed_ms', type: 'int' })
  elapsedMs: number;

  /** Rows answered; null when the query failed. */
  @Column({ name: 'row_count', type: 'int', nullable: true })
  rowCount: number | null;

  @Column({ type: 'text', nullable: true })
  error: string | null;
}
