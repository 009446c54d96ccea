import { Check, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * Every readable table name ever given (see readable-name.ts): the primary key keeps a name unique
 * across datasets and connector tables, and a deleted table's name is never given again.
 */
@Entity({ name: 'readable_names' })
@Check('readable_names_name_check', `name ~ '^[a-z][a-z0-9_]{0,47}$'`)
export class ReadableName {
  @PrimaryColumn({ type: 'text' })
  name: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
