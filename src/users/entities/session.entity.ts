import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** express-session rows, in the table layout connect-pg-simple reads and writes. */
@Entity({ name: 'session' })
export class Session {
  @PrimaryColumn({ type: 'varchar' })
  sid: string;

  @Column({ type: 'json' })
  sess: Record<string, unknown>;

  @Index('session_expire_idx')
  @Column({ type: 'timestamp', precision: 6 })
  expire: Date;
}
