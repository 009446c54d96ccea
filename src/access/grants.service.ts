import { randomUUID } from 'node:crypto';
import { BadRequestException, HttpException, HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager, FindOptionsWhere, IsNull } from 'typeorm';
import type { Asset } from '../assets/entities/asset.entity';
import { Sql, sqlOn } from '../database/sql';
import { NotificationsService } from '../notifications/notifications.service';
import { AccessGate, Caller } from './access-gate.service';
import { AccessGrant } from './entities/access-grant.entity';
import { OrganisationGrant } from './entities/organisation-grant.entity';
import { Purchase } from './entities/purchase.entity';
import {
  AccountPurchases,
  CheckoutStarted,
  GrantResult,
  HeldDatasetView,
  OrderView,
  PurchaseView,
  RemoveResult,
  toPurchaseView,
} from './grant-result';
import { deleteGrant, deleteOrganisationGrant, insertGrant, insertOrganisationGrant } from './grant-rows';
import { HostedCheckout } from './payments/hosted-checkout';
import { PAYMENT_PROVIDER, PaymentProvider } from './payments/payment-provider';
import { AuditService } from '../audit/audit.service';
import { SubscriptionsService } from './subscriptions/subscriptions.service';

export const NO_HOSTED_CHECKOUT_FOR_ORGANISATIONS =
  'Paid datasets cannot be bought for an organisation with this payment provider yet. Buy it for yourself, or get free datasets for the organisation.';

export const NO_SUBSCRIPTIONS_FOR_ORGANISATIONS =
  'Datasets sold by the month or year cannot be subscribed to for an organisation yet. Subscribe for yourself, or get free datasets for the organisation.';

/**
 * Changes who holds which dataset: grants, purchases and removals, with the subscriber count kept
 * exact inside the same transactions. Who may ask is decided by the AccessGate.
 */
@Injectable()
export class GrantsService {
  private readonly logger = new Logger(GrantsService.name);
  private readonly checkout: HostedCheckout;

  constructor(
    private readonly dataSource: DataSource,
    private readonly gate: AccessGate,
    @Inject(PAYMENT_PROVIDER) private readonly payments: PaymentProvider,
    private readonly notifications: NotificationsService,
    private readonly audit: AuditService,
    private readonly subscriptions: SubscriptionsService,
  ) {
    this.checkout = new HostedCheckout(dataSource, payments);
  }

  /** Ids of every dataset the caller holds, owned ones included (the access list); empty for a visitor. */
  async myAssetIds(caller: Caller): Promise<string[]> {
    return (await this.gate.heldDatasets(caller)).map((asset) => asset.id);
  }

  /**
   * Gives the user access. Free datasets are granted at once; paid ones are charged through the
   * payment provider and the order is recorded with the price of that moment. Asking again is
   * harmless: no second purchase, no second count; nor does getting back a dataset once bought.
   * With a hosted checkout (Stripe) the answer is the checkout page instead, and access follows
   * the provider's signed notice (PaymentEventsService); asking again offers the same open page.
   */
  async grant(user: NonNullable<Caller>, assetId: string): Promise<GrantResult | CheckoutStarted> {
    let failure: string | undefined;
    const result = await this.dataSource.transaction(async (manager) => {
      const sql = sqlOn(manager);
      // One grant attempt per user and dataset at a time, so a double click cannot charge twice.
      await sql(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`grant:${user.id}:${assetId}`]);
      const { asset, owned } = await this.gate.requireDataset(user, assetId, 'sample', manager);
      const existing = await manager.findOneBy(AccessGrant, { userId: user.id, assetId });
      // A subscription's grant outlives its subscription until the sweep: it is no access then.
      if (existing?.reason === 'subscription' && !(await this.subscriptions.inForce(sql, user.id, assetId)))
        await deleteGrant(sql, user.id, assetId, 'subscription');
      else if (existing)
        return { granted: true, already: true, assetId, reason: existing.reason } satisfies GrantResult;
      // Editors of the organisation it belongs to act as its owner only while their role lasts:
      // no personal grant is recorded that would outlast it.
      if (owned && asset.organisationId !== null)
        return { granted: true, already: true, assetId, reason: 'owner' } satisfies GrantResult;
      if (owned) {
        await insertGrant(sql, user.id, assetId, 'owner');
        return { granted: true, already: true, assetId, reason: 'owner' } satisfies GrantResult;
      }
      if (Number(asset.price) <= 0) {
        await insertGrant(sql, user.id, assetId, 'free');
        return { granted: true, already: false, assetId, reason: 'free' } satisfies GrantResult;
      }
      // Bought once, owned for good: getting it back after a Remove charges nothing.
      let purchase = await this.paidPurchase(manager, { userId: user.id, organisationId: IsNull(), assetId });
      if (!purchase && asset.billingInterval) return this.subscriptions.start(manager, user.id, asset);
      if (!purchase) {
        if (this.payments.hostedCheckout) return this.checkout.reserve(manager, user.id, asset);
        const charged = await this.charge(manager, user.id, asset);
        if (charged.status !== 'paid') {
          failure = charged.failure;
          return null;
        }
        purchase = charged.view;
        await this.notifications.purchasePaid(sql, purchase.id);
      }
      await insertGrant(sql, user.id, assetId, 'purchase');
      await this.audit.recordIn(
        sql,
        'purchase_granted',
        { purchase_id: purchase.id, dataset_id: assetId },
        user.id,
      );
      return { granted: true, already: false, assetId, reason: 'purchase', purchase } satisfies GrantResult;
    });
    // The failed order stays recorded (committed above); the buyer gets a clear answer.
    if (!result)
      throw new HttpException(`Payment failed: ${failure ?? 'declined'}`, HttpStatus.PAYMENT_REQUIRED);
    // The provider is called after the commit: no transaction or lock waits on its network.
    if ('toOpen' in result) return this.checkout.open(result);
    if ('subscriptionToOpen' in result) return this.subscriptions.open(result);
    return result;
  }

  /**
   * Gets or buys the dataset for an organisation the caller is an editor (or above) of: every
   * member reads it from then on. The order, if any, is the caller's and names the organisation.
   * Asking again is harmless; a dataset the organisation owns is held already.
   */
  async grantForOrganisation(
    user: NonNullable<Caller>,
    assetId: string,
    organisationId: string,
  ): Promise<GrantResult> {
    let failure: string | undefined;
    const result = await this.dataSource.transaction(async (manager) => {
      const sql = sqlOn(manager);
      await this.gate.requireOrganisationEditor(user, organisationId, manager);
      // One grant attempt per organisation and dataset at a time: two editors cannot both pay.
      await sql(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
        `grant:organisation:${organisationId}:${assetId}`,
      ]);
      const { asset } = await this.gate.requireDataset(user, assetId, 'sample', manager);
      const held = { granted: true, already: true, assetId, organisationId } as const;
      if (asset.organisationId === organisationId) return { ...held, reason: 'owner' } satisfies GrantResult;
      const existing = await manager.findOneBy(OrganisationGrant, { organisationId, assetId });
      if (existing) return { ...held, reason: existing.reason } satisfies GrantResult;
      if (Number(asset.price) <= 0) {
        await insertOrganisationGrant(sql, organisationId, assetId, 'free', user.id);
        return { ...held, already: false, reason: 'free' } satisfies GrantResult;
      }
      if (this.payments.hostedCheckout) throw new BadRequestException(NO_HOSTED_CHECKOUT_FOR_ORGANISATIONS);
      if (asset.billingInterval) throw new BadRequestException(NO_SUBSCRIPTIONS_FOR_ORGANISATIONS);
      let purchase = await this.paidPurchase(manager, { organisationId, assetId });
      if (!purchase) {
        const charged = await this.charge(manager, user.id, asset, organisationId);
        if (charged.status !== 'paid') {
          failure = charged.failure;
          return null;
        }
        purchase = charged.view;
        await this.notifications.purchasePaid(sql, purchase.id);
      }
      await insertOrganisationGrant(sql, organisationId, assetId, 'purchase', user.id);
      await this.audit.recordIn(
        sql,
        'purchase_granted',
        { purchase_id: purchase.id, dataset_id: assetId, organisation_id: organisationId },
        user.id,
      );
      return { ...held, already: false, reason: 'purchase', purchase } satisfies GrantResult;
    });
    if (!result)
      throw new HttpException(`Payment failed: ${failure ?? 'declined'}`, HttpStatus.PAYMENT_REQUIRED);
    return result;
  }

  /** Takes the organisation's holding away (editors and above): its members read it no longer. */
  async removeForOrganisation(
    user: NonNullable<Caller>,
    assetId: string,
    organisationId: string,
  ): Promise<RemoveResult> {
    return this.dataSource.transaction(async (manager) => {
      await this.gate.requireOrganisationEditor(user, organisationId, manager);
      await this.gate.requireDataset(user, assetId, 'sample', manager);
      return { removed: await deleteOrganisationGrant(sqlOn(manager), organisationId, assetId), assetId };
    });
  }

  /** Takes the user's access away. Owners keep theirs; removing access one does not hold is harmless. */
  async remove(user: NonNullable<Caller>, assetId: string): Promise<RemoveResult> {
    return this.dataSource.transaction(async (manager) => {
      const { owned } = await this.gate.requireDataset(user, assetId, 'sample', manager);
      if (owned) {
        throw new BadRequestException('You own this dataset; an owner cannot remove their own access.');
      }
      return { removed: await deleteGrant(sqlOn(manager), user.id, assetId), assetId };
    });
  }

  /** The user's held datasets (not their own uploads) with the order behind each, and every order. */
  async account(user: NonNullable<Caller>): Promise<AccountPurchases> {
    const held: Array<
      Omit<HeldDatasetView, 'granted_at' | 'amount'> & { granted_at: Date; amount: string | null }
    > = await this.dataSource.query(
      `SELECT grant_row.asset_id, asset.title, grant_row.reason, grant_row.granted_at,
                paid.id AS order_id, paid.amount, paid.currency
           FROM access_grants grant_row
           JOIN assets asset ON asset.id = grant_row.asset_id
           LEFT JOIN LATERAL (
             SELECT purchase.id, purchase.amount, purchase.currency FROM purchases purchase
              WHERE purchase.user_id = grant_row.user_id AND purchase.asset_id = grant_row.asset_id
                AND purchase.status = 'paid'
              ORDER BY purchase.created_at LIMIT 1) paid ON true
          WHERE grant_row.user_id = $1 AND grant_row.reason <> 'owner'
          ORDER BY grant_row.granted_at DESC, grant_row.asset_id`,
      [user.id],
    );
    const orders: Array<Omit<OrderView, 'created_at' | 'amount'> & { created_at: Date; amount: string }> =
      await this.dataSource.query(
        `SELECT purchase.id, purchase.asset_id, COALESCE(asset.title, purchase.title) AS title, purchase.amount,
                purchase.currency, purchase.status, purchase.created_at
           FROM purchases purchase LEFT JOIN assets asset ON asset.id = purchase.asset_id
          WHERE purchase.user_id = $1 ORDER BY purchase.created_at DESC, purchase.id`,
        [user.id],
      );
    return {
      held: held.map((row) => ({
        ...row,
        granted_at: row.granted_at.toISOString(),
        amount: row.amount === null ? null : Number(row.amount),
      })),
      orders: orders.map((row) => ({
        ...row,
        amount: Number(row.amount),
        created_at: row.created_at.toISOString(),
      })),
    };
  }

  /** Records the uploader's own access inside the upload's transaction (on the ingest's connection). */
  async grantOwnerAccess(sql: Sql, ownerId: string, assetId: string): Promise<void> {
    await insertGrant(sql, ownerId, assetId, 'owner');
  }

  /** The earlier paid order for this dataset of the user's own (or the organisation's), if any. */
  private async paidPurchase(
    manager: EntityManager,
    buyer: FindOptionsWhere<Purchase>,
  ): Promise<PurchaseView | null> {
    const purchase = await manager.findOne(Purchase, {
      where: { ...buyer, status: 'paid' },
      order: { createdAt: 'ASC' },
    });
    return purchase ? toPurchaseView(purchase, this.isTestMode(purchase)) : null;
  }

  private isTestMode(purchase: Purchase): boolean {
    return (
      purchase.provider === 'test' || (purchase.provider === this.payments.name && this.payments.testMode)
    );
  }

  private async charge(
    manager: EntityManager,
    userId: string,
    asset: Asset,
    organisationId: string | null = null,
  ): Promise<{ status: 'paid' | 'failed' | 'pending'; view: PurchaseView; failure?: string }> {
    const purchaseId = randomUUID();
    const charge = await this.payments.charge({
      amount: asset.price,
      currency: asset.currency,
      userId,
      assetId: asset.id,
      description: asset.title,
      purchaseId,
    });
    const order = {
      id: purchaseId,
      userId,
      assetId: asset.id,
      title: asset.title,
      amount: asset.price,
      currency: asset.currency,
      status: charge.status,
      provider: this.payments.name,
      paymentReference: charge.reference,
      organisationId,
    };
    const { generatedMaps } = await manager.insert(Purchase, order);
    const purchase = manager.create(Purchase, { ...order, ...generatedMaps[0] });
    const view = toPurchaseView(purchase, charge.testMode);
    if (charge.status !== 'paid') {
      this.logger.warn(
        `Payment ${purchaseId} for asset ${asset.id} failed at provider ${this.payments.name}`,
      );
    }
    return {
      status: charge.status,
      failure: charge.failureMessage,
      view,
    };
  }
}
