import { DataSource, EntityManager, IsNull, MoreThan } from 'typeorm';
import type { Asset } from '../../assets/entities/asset.entity';
import { Purchase } from '../entities/purchase.entity';
import { CheckoutStarted, toPurchaseView } from '../grant-result';
import type { ChargeResult, PaymentProvider } from './payment-provider';

/** A checkout page closing sooner than this is not offered again; a fresh one is opened. */
const REUSE_MARGIN_MS = 5 * 60 * 1000;
/** A pending order without its page yet is being opened by an earlier click for this long at most. */
const OPENING_MS = 2 * 60 * 1000;

/** A pending order reserved in the grant's transaction, whose checkout page is opened after it. */
export interface CheckoutToOpen {
  toOpen: Purchase;
  assetId: string;
  description: string;
}

/**
 * Purchases paid on the provider's page (Stripe Checkout): the order is reserved as 'pending'
 * under the grant's lock, the page is opened after the commit (the order id is the idempotency
 * key, so clicks racing for one order get one page), and access waits for the provider's notice.
 */
export class HostedCheckout {
  constructor(
    private readonly dataSource: DataSource,
    private readonly payments: PaymentProvider,
  ) {}

  /** Inside the grant's transaction: the open checkout to offer again, or the order to open one for. */
  async reserve(
    manager: EntityManager,
    userId: string,
    asset: Asset,
  ): Promise<CheckoutStarted | CheckoutToOpen> {
    const now = Date.now();
    const pending = { userId, assetId: asset.id, status: 'pending' as const, provider: this.payments.name };
    const earlier = await manager.findOne(Purchase, {
      where: [
        { ...pending, checkoutExpiresAt: MoreThan(new Date(now + REUSE_MARGIN_MS)) },
        { ...pending, checkoutUrl: IsNull(), createdAt: MoreThan(new Date(now - OPENING_MS)) },
      ],
      order: { createdAt: 'DESC' },
    });
    if (earlier?.checkoutUrl) return this.started(earlier, asset.id, earlier.checkoutUrl);
    if (earlier) return { toOpen: earlier, assetId: asset.id, description: asset.title };
    const order = {
      userId,
      assetId: asset.id,
      title: asset.title,
      amount: asset.price,
      currency: asset.currency,
      status: 'pending' as const,
      provider: this.payments.name,
      paymentReference: null,
      checkoutUrl: null,
      checkoutExpiresAt: null,
    };
    const { generatedMaps } = await manager.insert(Purchase, order);
    const created = manager.create(Purchase, { ...order, ...generatedMaps[0] });
    return { toOpen: created, assetId: asset.id, description: asset.title };
  }

  /** After the commit: asks the provider for the page and keeps it on the order. */
  async open({ toOpen: purchase, assetId, description }: CheckoutToOpen): Promise<CheckoutStarted> {
    const purchases = this.dataSource.getRepository(Purchase);
    let charge: ChargeResult;
    try {
      charge = await this.payments.charge({
        amount: purchase.amount,
        currency: purchase.currency,
        userId: purchase.userId,
        assetId,
        description,
        purchaseId: purchase.id,
      });
    } catch (error) {
      // No page, no payment: the order is closed, and the next Buy starts afresh.
      await purchases.update(
        { id: purchase.id, status: 'pending', checkoutUrl: IsNull() },
        { status: 'failed' },
      );
      throw error;
    }
    if (charge.status !== 'pending' || !charge.checkout) {
      throw new Error(`Payment provider ${this.payments.name} opened no checkout page`);
    }
    const page = {
      paymentReference: charge.reference,
      checkoutUrl: charge.checkout.url,
      checkoutExpiresAt: charge.checkout.expiresAt,
    };
    await purchases.update({ id: purchase.id, status: 'pending' }, page);
    return this.started({ ...purchase, ...page }, assetId, charge.checkout.url);
  }

  private started(purchase: Purchase, assetId: string, url: string): CheckoutStarted {
    return {
      granted: false,
      assetId,
      checkout_url: url,
      purchase: toPurchaseView(purchase, this.payments.testMode),
    };
  }
}
