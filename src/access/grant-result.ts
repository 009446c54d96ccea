import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Purchase, PURCHASE_STATUSES, PurchaseStatus } from './entities/purchase.entity';
import { SubscriptionView } from './subscriptions/subscription-view';

/** The order recorded for a paid dataset, as the buyer sees it. */
export class PurchaseView {
  @ApiProperty()
  id: string;

  @ApiProperty({ description: 'Price at purchase time' })
  amount: number;

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({ enum: PURCHASE_STATUSES })
  status: PurchaseStatus;

  @ApiProperty()
  provider: string;

  @ApiProperty({ type: String, nullable: true })
  payment_reference: string | null;

  @ApiProperty({
    description: 'No money moved: the built-in test provider, or Stripe in test mode',
  })
  test_mode: boolean;

  @ApiProperty({ format: 'date-time' })
  created_at: string;
}

export class GrantResult {
  @ApiProperty({ enum: [true] })
  granted: true;

  @ApiProperty()
  assetId: string;

  @ApiProperty({ description: 'The caller already held access before this call' })
  already: boolean;

  @ApiProperty({ enum: ['owner', 'free', 'purchase', 'subscription'] })
  reason: 'owner' | 'free' | 'purchase' | 'subscription';

  @ApiPropertyOptional({ type: () => PurchaseView })
  purchase?: PurchaseView;

  @ApiPropertyOptional({ description: 'The organisation that holds it, when it was got or bought for one' })
  organisationId?: string;
  @ApiPropertyOptional({ type: () => SubscriptionView, description: 'For a recurring price' })
  subscription?: SubscriptionView;
}

/** A paid dataset with a hosted checkout: the buyer pays there; access follows the provider's notice. */
export class CheckoutStarted {
  @ApiProperty({ enum: [false] })
  granted: false;

  @ApiProperty()
  assetId: string;

  @ApiProperty({ description: "The provider's checkout page to send the buyer to" })
  checkout_url: string;

  @ApiPropertyOptional({ type: () => PurchaseView, description: 'The pending order, for a one-off price' })
  purchase?: PurchaseView;

  @ApiPropertyOptional({
    type: () => SubscriptionView,
    description: 'The pending subscription, for a recurring price',
  })
  subscription?: SubscriptionView;
}

export class RemoveResult {
  @ApiProperty()
  removed: boolean;

  @ApiProperty()
  assetId: string;
}

/** GET access/payments: who checks out paid datasets, so the checkout can say when it is test mode. */
export class PaymentMode {
  @ApiProperty({ example: 'test' })
  provider: string;

  @ApiProperty()
  test_mode: boolean;
}

export function toPurchaseView(purchase: Purchase, testMode: boolean): PurchaseView {
  return {
    id: purchase.id,
    amount: Number(purchase.amount),
    currency: purchase.currency,
    status: purchase.status,
    provider: purchase.provider,
    payment_reference: purchase.paymentReference,
    test_mode: testMode,
    created_at: purchase.createdAt.toISOString(),
  };
}

/** A dataset the user holds without owning it, and how they got it. */
export class HeldDatasetView {
  @ApiProperty()
  asset_id: string;

  @ApiProperty()
  title: string;

  @ApiProperty({ enum: ['free', 'purchase', 'subscription'] })
  reason: 'free' | 'purchase' | 'subscription';

  @ApiProperty({ format: 'date-time', description: 'When access was granted' })
  granted_at: string;

  @ApiProperty({ type: String, nullable: true, description: 'The paid order behind it, if any' })
  order_id: string | null;

  @ApiProperty({ type: Number, nullable: true, description: 'Price paid' })
  amount: number | null;

  @ApiProperty({ type: String, nullable: true })
  currency: string | null;
}

/** An order of the user, whatever became of it or of its dataset. */
export class OrderView {
  @ApiProperty()
  id: string;

  @ApiProperty({ type: String, nullable: true, description: 'Empty once the owner deleted the dataset' })
  asset_id: string | null;

  @ApiProperty({ description: "The dataset's title (as it was bought, once the owner deleted it)" })
  title: string;

  @ApiProperty()
  amount: number;

  @ApiProperty()
  currency: string;

  @ApiProperty({ enum: PURCHASE_STATUSES })
  status: PurchaseStatus;

  @ApiProperty({ format: 'date-time' })
  created_at: string;
}

/** The Account screen's record of what the user got and bought. */
export class AccountPurchases {
  @ApiProperty({ type: () => [HeldDatasetView] })
  held: HeldDatasetView[];

  @ApiProperty({ type: () => [OrderView] })
  orders: OrderView[];
}
