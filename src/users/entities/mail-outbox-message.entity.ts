import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Mail written here instead of being sent when no SMTP_URL is configured, so local users and the
 * tests can follow verification links. Never readable through the API in production.
 */
@Entity({ name: 'mail_outbox' })
export class MailOutboxMessage {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('mail_outbox_recipient_idx')
  @Column({ type: 'text' })
  recipient: string;

  @Column({ type: 'text' })
  subject: string;

  @Column({ type: 'text' })
  text: string;

  @Column({ type: 'text', nullable: true })
  html: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
