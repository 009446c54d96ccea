import {
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
import { User } from '../../../users/entities/user.entity';

/**
 * A query a user kept under a name, seen only by them. Names are unique per user regardless of
 * case: an expression index, so the migration owns it.
 */
@Entity({ name: 'saved_queries' })
@Index('saved_queries_user_name_key', { synchronize: false })
export class SavedQuery {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'saved_queries_user_id_fkey' })
  user?: Relation<User>;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  sql: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
