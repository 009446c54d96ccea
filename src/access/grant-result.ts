import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The order recorded for a paid dataset, as the buyer sees it. */
export class PurchaseView {
  @ApiProperty()
  id: string;

  @ApiProperty({ description: 'Price at purchase time' })
  amount: number;

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({ enum: ['pending', 'paid', 'failed'] })
  status: 'pending' | 'paid' | 'failed';

  @ApiProperty()
  provider: string;

  @ApiProperty({ type: String, nullable: true })
  payment_reference: string | null;

  @ApiProperty({ description: 'The payment went through the built-in test provider (no money moved)' })
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

  @ApiProperty({ enum: ['owner', 'free', 'purchase'] })
  reason: 'owner' | 'free' | 'purchase';

  @ApiPropertyOptional({ type: () => PurchaseView })
  purchase?: PurchaseView;
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
