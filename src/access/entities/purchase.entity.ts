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
import { User } from '../../users/entities/user.entity';

/** An order for a paid dataset, with the price as it was at purchase time. */
@Entity({ name: 'purchases' })
@Check('purchases_amount_check', `amount >= 0`)
@Check('purchases_status_check', `status IN ('pending', 'paid', 'failed')`)
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

  @Column({ type: 'numeric', precision: 12, scale: 2 })
  amount: string;

  @Column({ type: 'text' })
  currency: string;

  @Column({ type: 'text' })
  status: 'pending' | 'paid' | 'failed';

  /** Payment provider name ('test' is the built-in test mode). */
  @Column({ type: 'text' })
  provider: string;

  @Column({ name: 'payment_reference', type: 'text', nullable: true })
  paymentReference: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
