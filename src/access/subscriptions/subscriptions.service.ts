import { randomUUID } from 'node:crypto';
import { BadRequestException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { DataSource, EntityManager, IsNull, MoreThan } from 'typeorm';
import type { Asset, BillingInterval } from '../../assets/entities/asset.entity';
import { AuditService } from '../../audit/audit.service';
import { isUuid } from '../../common/uuid';
import { Sql, sqlOn } from '../../database/sql';
import { subscriptionInForce } from '../access-gate.service';
import { Subscription } from '../entities/subscription.entity';
import type { CheckoutStarted, GrantResult } from '../grant-result';
import { insertGrant } from '../grant-rows';
import { PAYMENT_PROVIDER, PaymentProvider, SubscriptionCheckout } from '../payments/payment-provider';
import { SubscriptionRow, SubscriptionStates } from './subscription-states';
import { SubscriptionView, toSubscriptionView } from './subscription-view';

export const SUBSCRIPTION_NOT_FOUND = 'Subscription not found';
export const SUBSCRIPTION_ENDED = 'This subscription has already ended';

/** A checkout page closing sooner than this is not offered again; a fresh one is opened. */
const REUSE_MARGIN_MS = 5 * 60 * 1000;
/** A pending subscription without its page yet is being opened by an earlier click for this long at most. */
const OPENING_MS = 2 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A pending subscription reserved in the grant's transaction, whose checkout page is opened after it. */
export interface SubscriptionToOpen {
  subscriptionToOpen: Subscription;
  assetId: string;
}

/**
 * One period after `from`: the same day of the next month or year, or that month's last day when
 * it is shorter (31 January → 28 or 29 February), as Stripe bills.
 */
export function addInterval(from: Date, interval: BillingInterval): Date {
  const months = interval === 'month' ? 1 : 12;
  const next = new Date(from);
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(from.getUTCDate(), lastDay));
  return next;
}

/**
 * Subscriptions to datasets with a recurring price: started from the grant (at once with the test
 * provider, through a hosted checkout in subscription mode with Stripe), listed and cancelled by
 * their buyer. Their states are written by SubscriptionStates; who may read what stays the gate's.
 */
@Injectable()
export class SubscriptionsService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(PAYMENT_PROVIDER) private readonly payments: PaymentProvider,
    private readonly states: SubscriptionStates,
    private readonly audit: AuditService,
  ) {}

  /** True when the user has a subscription to the dataset in force. */
  async inForce(sql: Sql, userId: string, assetId: string): Promise<boolean> {
    const { rows } = await sql(
      `SELECT 1 FROM subscriptions s WHERE s.user_id = $1 AND s.asset_id = $2 AND ${subscriptionInForce('s')}`,
      [userId, assetId],
    );
    return rows.length > 0;
  }

  /**
   * Inside the grant's transaction (under its per-user-and-dataset lock): access again for a
   * subscription still in force, the open checkout to offer again, a new subscription (test
   * provider: in force at once) or one to open a checkout page for.
   */
  async start(
    manager: EntityManager,
    userId: string,
    asset: Asset,
  ): Promise<GrantResult | CheckoutStarted | SubscriptionToOpen> {
    const sql = sqlOn(manager);
    const running = await this.find(
      manager,
      `s.user_id = $1 AND s.asset_id = $2 AND ${subscriptionInForce('s')}`,
      [userId, asset.id],
    );
    if (running) {
      await insertGrant(sql, userId, asset.id, 'subscription');
      return this.granted(asset.id, running);
    }
    const terms = {
      userId,
      assetId: asset.id,
      title: asset.title,
      amount: asset.price,
      currency: asset.currency,
      billingInterval: asset.billingInterval ?? 'month',
      trialDays: asset.trialDays,
      provider: this.payments.name,
    };
    if (this.payments.startSubscription) {
      const now = Date.now();
      const pending = { userId, assetId: asset.id, status: 'pending' as const, provider: this.payments.name };
      const earlier = await manager.findOne(Subscription, {
        where: [
          { ...pending, checkoutExpiresAt: MoreThan(new Date(now + REUSE_MARGIN_MS)) },
          { ...pending, checkoutUrl: IsNull(), createdAt: MoreThan(new Date(now - OPENING_MS)) },
        ],
        order: { createdAt: 'DESC' },
      });
      if (earlier?.checkoutUrl) return this.started(earlier, earlier.checkoutUrl);
      if (earlier) return { subscriptionToOpen: earlier, assetId: asset.id };
      const created = await manager.save(manager.create(Subscription, { ...terms, status: 'pending' }));
      return { subscriptionToOpen: created, assetId: asset.id };
    }
    // The test provider: no page, no money; the subscription starts at once.
    const created = await manager.save(
      manager.create(Subscription, {
        ...terms,
        status: 'pending',
        providerSubscriptionId: `test_sub_${randomUUID()}`,
      }),
    );
    const row = (await this.states.lock(sql, { id: created.id }))!;
    const now = new Date();
    await this.states.apply(sql, row, {
      status: terms.trialDays > 0 ? 'trialing' : 'active',
      cancelAtPeriodEnd: false,
      currentPeriodEnd:
        terms.trialDays > 0
          ? new Date(now.getTime() + terms.trialDays * DAY_MS)
          : addInterval(now, terms.billingInterval),
      at: now,
    });
    return this.granted(asset.id, (await manager.findOneBy(Subscription, { id: created.id }))!);
  }

  /** After the commit: asks the provider for the checkout page and keeps it on the subscription. */
  async open({ subscriptionToOpen: subscription, assetId }: SubscriptionToOpen): Promise<CheckoutStarted> {
    const repository = this.dataSource.getRepository(Subscription);
    let page: SubscriptionCheckout;
    try {
      page = await this.payments.startSubscription!({
        amount: subscription.amount,
        currency: subscription.currency,
        interval: subscription.billingInterval,
        trialDays: subscription.trialDays,
        userId: subscription.userId,
        assetId,
        description: subscription.title,
        subscriptionId: subscription.id,
      });
    } catch (error) {
      // No page, nothing to pay: the next Subscribe starts afresh.
      await repository.update(
        { id: subscription.id, status: 'pending', checkoutUrl: IsNull() },
        { status: 'expired' },
      );
      throw error;
    }
    const opened = {
      checkoutSessionId: page.reference,
      checkoutUrl: page.checkout.url,
      checkoutExpiresAt: page.checkout.expiresAt,
    };
    await repository.update({ id: subscription.id, status: 'pending' }, opened);
    return this.started({ ...subscription, ...opened }, page.checkout.url);
  }

  /** The buyer's subscriptions that started, newest first (open or abandoned checkouts left out). */
  async list(userId: string): Promise<SubscriptionView[]> {
    const rows: Array<Subscription & { in_force: boolean }> = await this.dataSource
      .getRepository(Subscription)
      .createQueryBuilder('s')
      .addSelect(subscriptionInForce('s'), 'in_force')
      .where('s.user_id = :userId', { userId })
      .andWhere(`s.status NOT IN ('pending', 'expired', 'incomplete_expired')`)
      .orderBy('s.created_at', 'DESC')
      .addOrderBy('s.id')
      .getRawAndEntities()
      .then(({ entities, raw }) =>
        entities.map((entity, index) =>
          Object.assign(entity, { in_force: (raw[index] as { in_force: boolean }).in_force }),
        ),
      );
    return rows.map((row) => toSubscriptionView(row, row.in_force));
  }

  /**
   * Cancels at the end of the current period: the buyer keeps access until then, and nothing is
   * charged again. Cancelling twice is harmless. Someone else's subscription is not found (404).
   */
  async cancel(userId: string, subscriptionId: string): Promise<SubscriptionView> {
    const current = await this.own(userId, subscriptionId);
    if (!['trialing', 'active', 'past_due'].includes(current.status))
      throw new BadRequestException(SUBSCRIPTION_ENDED);
    if (!current.cancelAtPeriodEnd && current.providerSubscriptionId && this.payments.cancelAtPeriodEnd)
      await this.payments.cancelAtPeriodEnd(current.providerSubscriptionId);
    await this.dataSource.transaction(async (manager) => {
      const sql = sqlOn(manager);
      const row = (await this.states.lock(sql, { id: subscriptionId }))!;
      if (row.cancel_at_period_end || row.status === 'canceled') return;
      await this.states.apply(sql, row, { ...this.stateOf(row), cancelAtPeriodEnd: true, at: null });
      await this.audit.recordIn(
        sql,
        'subscription_cancelled',
        { subscription_id: row.id, dataset_id: row.asset_id },
        userId,
      );
    });
    return this.view(userId, subscriptionId);
  }

  /** Test provider only: the period renews and is paid (a past-due subscription recovers). */
  renewNow(userId: string, subscriptionId: string): Promise<SubscriptionView> {
    return this.simulate(userId, subscriptionId, (row) => ({
      status: 'active',
      currentPeriodEnd: addInterval(
        new Date(Math.max(Date.now(), row.current_period_end?.getTime() ?? 0)),
        row.billing_interval,
      ),
    }));
  }

  /** Test provider only: the renewal's charge fails; the grace period starts. */
  failRenewal(userId: string, subscriptionId: string): Promise<SubscriptionView> {
    return this.simulate(userId, subscriptionId, () => ({ status: 'past_due' }));
  }

  private async simulate(
    userId: string,
    subscriptionId: string,
    change: (row: SubscriptionRow) => Partial<{ status: SubscriptionRow['status']; currentPeriodEnd: Date }>,
  ): Promise<SubscriptionView> {
    const current = await this.own(userId, subscriptionId);
    if (current.provider !== 'test' || !['trialing', 'active', 'past_due'].includes(current.status))
      throw new BadRequestException(SUBSCRIPTION_ENDED);
    await this.dataSource.transaction(async (manager) => {
      const sql = sqlOn(manager);
      const row = (await this.states.lock(sql, { id: subscriptionId }))!;
      await this.states.apply(sql, row, { ...this.stateOf(row), ...change(row), at: new Date() });
    });
    return this.view(userId, subscriptionId);
  }

  private stateOf(row: SubscriptionRow) {
    return {
      status: row.status,
      cancelAtPeriodEnd: row.cancel_at_period_end,
      currentPeriodEnd: row.current_period_end,
    };
  }

  private async own(userId: string, subscriptionId: string): Promise<Subscription> {
    const found = isUuid(subscriptionId)
      ? await this.dataSource.getRepository(Subscription).findOneBy({ id: subscriptionId, userId })
      : null;
    if (!found || found.status === 'pending' || found.status === 'expired')
      throw new NotFoundException(SUBSCRIPTION_NOT_FOUND);
    return found;
  }

  private async view(userId: string, subscriptionId: string): Promise<SubscriptionView> {
    const found = (await this.list(userId)).find((subscription) => subscription.id === subscriptionId);
    if (!found) throw new NotFoundException(SUBSCRIPTION_NOT_FOUND);
    return found;
  }

  private async find(manager: EntityManager, where: string, values: unknown[]): Promise<Subscription | null> {
    const { rows } = await sqlOn(manager)<{ id: string }>(
      `SELECT s.id FROM subscriptions s WHERE ${where} ORDER BY s.created_at DESC LIMIT 1`,
      values,
    );
    return rows[0] ? manager.findOneBy(Subscription, { id: rows[0].id }) : null;
  }

  private granted(assetId: string, subscription: Subscription): GrantResult {
    return {
      granted: true,
      already: false,
      assetId,
      reason: 'subscription',
      subscription: toSubscriptionView(subscription, true),
    };
  }

  private started(subscription: Subscription, url: string): CheckoutStarted {
    return {
      granted: false,
      assetId: subscription.assetId!,
      checkout_url: url,
      subscription: toSubscriptionView(subscription, false),
    };
  }
}
