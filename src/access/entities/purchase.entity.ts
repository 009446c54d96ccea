import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import type { Relation } from 'typeorm';
import { Asset } from '../../assets/entities/asset.entity';
import { Organisation } from '../../organisations/entities/organisation.entity';
import { User } from '../../users/entities/user.entity';

export const PURCHASE_STATUSES = ['pending', 'paid', 'failed', 'expired', 'refunded'] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];

/**
 * An order for a paid dataset, with the price as it was at purchase time. With a hosted checkout
 * (Stripe) it stays 'pending' until the provider's signed notice makes it paid, expired or refunded.
 */
@Entity({ name: 'purchases' })
@Check('purchases_amount_check', `amount >= 0`)
@Check('purchases_status_check', `status IN ('pending', 'paid', 'failed', 'expired', 'refunded')`)
export class Purchase {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('purchases_user_id_idx')
  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'purchases_user_id_fkey' })
  user?: Relation<User>;

  @Index('purchases_asset_id_idx')
  @Column({ name: 'asset_id', type: 'uuid', nullable: true })
  assetId: string | null;

  @ManyToOne(() => Asset, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'asset_id', foreignKeyConstraintName: 'purchases_asset_id_fkey' })
  asset?: Relation<Asset>;

  /** The dataset's title when it was bought: the order still says what it was for once the dataset is deleted. */
  @Column({ type: 'text', default: '' })
  title: string;

  @Column({ type: 'numeric', precision: 12, scale: 2 })
  amount: string;

  @Column({ type: 'text' })
  currency: string;

  @Column({ type: 'text' })
  status: PurchaseStatus;

  /** Payment provider name ('test' is the built-in test mode). */
  @Column({ type: 'text' })
  provider: string;

  /** The provider's reference: the test charge id, or the Stripe Checkout Session id. */
  @Column({ name: 'payment_reference', type: 'text', nullable: true })
  paymentReference: string | null;

  /** Where the buyer pays a pending hosted checkout, and until when that page is open. */
  @Column({ name: 'checkout_url', type: 'text', nullable: true })
  checkoutUrl: string | null;

  @Column({ name: 'checkout_expires_at', type: 'timestamptz', nullable: true })
  checkoutExpiresAt: Date | null;

  /** Stripe's PaymentIntent behind a paid checkout; refunds name it. */
  @Index('purchases_payment_intent_id_key', { unique: true })
  @Column({ name: 'payment_intent_id', type: 'text', nullable: true })
  paymentIntentId: string | null;

  /** The organisation the order was placed for (it holds what was bought), or null for the buyer's own. */
  @Column({ name: 'organisation_id', type: 'uuid', nullable: true })
  organisationId: string | null;

  @ManyToOne(() => Organisation, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'organisation_id', foreignKeyConstraintName: 'purchases_organisation_id_fkey' })
  organisation?: Relation<Organisation>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
