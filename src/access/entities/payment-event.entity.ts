import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { Relation } from 'typeorm';
import { Purchase } from './purchase.entity';

/**
 * One row per payment provider notice (webhook event) already handled. The primary key on the
 * provider's event id makes a replayed or re-delivered notice change nothing a second time.
 */
@Entity({ name: 'payment_events' })
@Index('payment_events_full_refund_idx', ['paymentIntentId'], { where: 'full_refund' })
export class PaymentEvent {
  @PrimaryColumn({ name: 'event_id', type: 'text' })
  eventId: string;

  @Column({ type: 'text' })
  provider: string;

  @Column({ type: 'text' })
  type: string;

  @Index('payment_events_purchase_id_idx')
  @Column({ name: 'purchase_id', type: 'uuid', nullable: true })
  purchaseId: string | null;

  /** The payment intent the event names; a full refund is looked up by it when its completion comes later. */
  @Column({ name: 'payment_intent_id', type: 'text', nullable: true })
  paymentIntentId: string | null;

  @Column({ name: 'full_refund', type: 'boolean', default: false })
  fullRefund: boolean;

  @ManyToOne(() => Purchase, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'purchase_id', foreignKeyConstraintName: 'payment_events_purchase_id_fkey' })
  purchase?: Relation<Purchase>;

  @CreateDateColumn({ name: 'received_at', type: 'timestamptz' })
  receivedAt: Date;
}
