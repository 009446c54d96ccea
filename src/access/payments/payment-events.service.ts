import { Injectable, Logger } from '@nestjs/common';
import type Stripe from 'stripe';
import { DataSource } from 'typeorm';
import { NotificationsService } from '../../notifications/notifications.service';
import { Sql, sqlOn } from '../../database/sql';
import type { PurchaseStatus } from '../entities/purchase.entity';
import { deleteGrant, insertGrant } from '../grant-rows';
import { toMinorUnits } from './minor-units';
import { AuditService } from '../../audit/audit.service';
import { isSubscriptionEvent, StripeSubscriptionEvents } from '../subscriptions/stripe-subscription-events';

interface PurchaseRow {
  id: string;
  user_id: string;
  asset_id: string | null;
  status: PurchaseStatus;
  amount: string;
  currency: string;
}

/** Every id an event carries that can name one of our orders. */
interface EventIds {
  purchaseId: string | null;
  sessionId: string | null;
  paymentIntentId: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function uuidOrNull(id: string | null | undefined): string | null {
  return id && UUID.test(id) ? id : null;
}

function idOf(value: string | { id: string } | null): string | null {
  return typeof value === 'string' ? value : (value?.id ?? null);
}

/** The ids of the events we act on; all null for the others. */
function idsOf(event: Stripe.Event): EventIds {
  if (event.type.startsWith('checkout.session.')) {
    const session = event.data.object as Stripe.Checkout.Session;
    return {
      purchaseId: uuidOrNull(session.metadata?.purchase_id ?? session.client_reference_id),
      sessionId: session.id ?? null,
      paymentIntentId: idOf(session.payment_intent),
    };
  }
  if (event.type === 'charge.refunded') {
    const charge = event.data.object as Stripe.Charge;
    return {
      purchaseId: uuidOrNull(charge.metadata?.purchase_id),
      sessionId: null,
      paymentIntentId: idOf(charge.payment_intent),
    };
  }
  return { purchaseId: null, sessionId: null, paymentIntentId: null };
}

/**
 * Settles orders from Stripe's verified events: a completed checkout pays the order and grants
 * access, an expired or failed one closes it, a full refund takes the access back. Stripe does not
 * promise an order of delivery, so an event is matched on every id it carries (our order id, the
 * session, the payment intent) and a refund that comes before its completion is remembered: any
 * order gives the same outcome. Each event id is recorded in the same transaction, so a replayed
 * or re-delivered event changes nothing.
 */
@Injectable()
export class PaymentEventsService {
  private readonly logger = new Logger(PaymentEventsService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly notifications: NotificationsService,
    private readonly audit: AuditService,
    private readonly subscriptions: StripeSubscriptionEvents,
  ) {}

  /** Handles one verified event; true when it was new, false for one already handled. */
  async handle(event: Stripe.Event): Promise<boolean> {
    if (isSubscriptionEvent(event)) return this.handleSubscription(event);
    const ids = idsOf(event);
    return this.dataSource.transaction(async (manager) => {
      const sql = sqlOn(manager);
      // A refund and the completion of one payment, delivered at once, are handled one after the
      // other: the second one sees what the first recorded.
      if (ids.paymentIntentId)
        await sql(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`stripe:${ids.paymentIntentId}`]);
      const purchase = await this.lockPurchase(sql, ids);
      const recorded = await sql(
        `INSERT INTO payment_events (event_id, provider, type, purchase_id, payment_intent_id, full_refund)
         VALUES ($1, 'stripe', $2, $3, $4, $5)
         ON CONFLICT (event_id) DO NOTHING RETURNING event_id`,
        [event.id, event.type, purchase?.id ?? null, ids.paymentIntentId, isFullRefund(event)],
      );
      if (recorded.rows.length === 0) return false;
      if (!purchase) {
        if (purchaseEvents.has(event.type))
          this.logger.warn(`Stripe event ${event.id} (${event.type}) matches no order of ours yet`);
        return true;
      }
      await this.apply(sql, event, purchase, ids);
      return true;
    });
  }

  /** A subscription's event, recorded like an order's so a replay changes nothing. */
  private handleSubscription(event: Stripe.Event): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const sql = sqlOn(manager);
      const recorded = await sql(
        `INSERT INTO payment_events (event_id, provider, type) VALUES ($1, 'stripe', $2)
         ON CONFLICT (event_id) DO NOTHING RETURNING event_id`,
        [event.id, event.type],
      );
      if (recorded.rows.length === 0) return false;
      await this.subscriptions.apply(sql, event);
      return true;
    });
  }

  /** The order any of the event's ids names, locked for this transaction; null when none does. */
  private async lockPurchase(sql: Sql, ids: EventIds): Promise<PurchaseRow | null> {
    if (!ids.purchaseId && !ids.sessionId && !ids.paymentIntentId) return null;
    const found = await sql<PurchaseRow>(
      `SELECT id, user_id, asset_id, status, amount::text AS amount, currency FROM purchases
        WHERE provider = 'stripe'
          AND (id = $1::uuid OR payment_reference = $2 OR payment_intent_id = $3)
        ORDER BY (id = $1::uuid) DESC NULLS LAST LIMIT 1 FOR UPDATE`,
      [ids.purchaseId, ids.sessionId, ids.paymentIntentId],
    );
    return found.rows[0] ?? null;
  }

  private async apply(sql: Sql, event: Stripe.Event, purchase: PurchaseRow, ids: EventIds): Promise<void> {
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded':
        return this.paid(sql, event.data.object, purchase, ids.paymentIntentId);
      case 'checkout.session.async_payment_failed':
        return this.close(sql, purchase, 'failed');
      case 'checkout.session.expired':
        return this.close(sql, purchase, 'expired');
      case 'charge.refunded':
        return this.refunded(sql, event.data.object, purchase, ids.paymentIntentId);
    }
  }

  private async paid(
    sql: Sql,
    session: Stripe.Checkout.Session,
    purchase: PurchaseRow,
    paymentIntentId: string | null,
  ): Promise<void> {
    // Delayed methods (bank debits) complete the session unpaid; async_payment_succeeded follows.
    if (session.payment_status !== 'paid') return;
    if (purchase.status === 'paid' || purchase.status === 'refunded') return;
    if (!chargedAsOrdered(session, purchase)) {
      this.logger.error(
        `Stripe session ${session.id} charged ${session.amount_total} ${session.currency} for purchase ` +
          `${purchase.id} of ${purchase.amount} ${purchase.currency}; no access granted`,
      );
      return;
    }
    if (paymentIntentId && (await this.refundedEarlier(sql, paymentIntentId))) {
      await sql(
        `UPDATE purchases SET status = 'refunded', payment_intent_id = $2, checkout_url = NULL WHERE id = $1`,
        [purchase.id, paymentIntentId],
      );
      await this.notifications.purchaseRefunded(sql, purchase.id, false);
      await this.audit.recordIn(
        sql,
        'refund',
        { purchase_id: purchase.id, dataset_id: purchase.asset_id, access_removed: false },
        purchase.user_id,
      );
      this.logger.log(`Purchase ${purchase.id} completed after its refund; no access granted`);
      return;
    }
    await sql(
      `UPDATE purchases SET status = 'paid', payment_intent_id = $2, checkout_url = NULL WHERE id = $1`,
      [purchase.id, paymentIntentId],
    );
    // A dataset deleted since stays paid for the record; there is nothing left to grant.
    if (purchase.asset_id) await insertGrant(sql, purchase.user_id, purchase.asset_id, 'purchase');
    await this.audit.recordIn(
      sql,
      'purchase_granted',
      { purchase_id: purchase.id, dataset_id: purchase.asset_id, provider: 'stripe' },
      purchase.user_id,
    );
    await this.notifications.purchasePaid(sql, purchase.id);
    this.logger.log(`Purchase ${purchase.id} paid through Stripe; access granted`);
  }

  private async close(sql: Sql, purchase: PurchaseRow, status: 'failed' | 'expired'): Promise<void> {
    if (purchase.status !== 'pending') return;
    await sql(`UPDATE purchases SET status = $2, checkout_url = NULL WHERE id = $1`, [purchase.id, status]);
  }

  private async refunded(
    sql: Sql,
    charge: Stripe.Charge,
    purchase: PurchaseRow,
    paymentIntentId: string | null,
  ): Promise<void> {
    // A partial refund is a goodwill gesture: the buyer keeps the dataset.
    if (!charge.refunded || purchase.status === 'refunded') return;
    await sql(
      `UPDATE purchases SET status = 'refunded', checkout_url = NULL,
              payment_intent_id = COALESCE(payment_intent_id, $2) WHERE id = $1`,
      [purchase.id, paymentIntentId],
    );
    const accessRemoved =
      purchase.status === 'paid' &&
      !!purchase.asset_id &&
      (await deleteGrant(sql, purchase.user_id, purchase.asset_id));
    await this.notifications.purchaseRefunded(sql, purchase.id, accessRemoved);
    await this.audit.recordIn(
      sql,
      'refund',
      { purchase_id: purchase.id, dataset_id: purchase.asset_id, access_removed: accessRemoved },
      purchase.user_id,
    );
    this.logger.log(`Purchase ${purchase.id} refunded through Stripe; access removed`);
  }

  /** True when a full refund of this payment was delivered before any order could be matched to it. */
  private async refundedEarlier(sql: Sql, paymentIntentId: string): Promise<boolean> {
    const found = await sql(
      `SELECT 1 FROM payment_events WHERE payment_intent_id = $1 AND full_refund LIMIT 1`,
      [paymentIntentId],
    );
    return found.rows.length > 0;
  }
}

function isFullRefund(event: Stripe.Event): boolean {
  return event.type === 'charge.refunded' && (event.data.object as Stripe.Charge).refunded === true;
}

/** The completed session charged exactly the order's price, in its currency. */
function chargedAsOrdered(session: Stripe.Checkout.Session, purchase: PurchaseRow): boolean {
  return (
    session.currency?.toUpperCase() === purchase.currency.toUpperCase() &&
    session.amount_total === toMinorUnits(purchase.amount, purchase.currency)
  );
}

/** Event types that always concern one of our orders (a warning when none is found). */
const purchaseEvents = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
  'charge.refunded',
]);
