import { Injectable, Logger } from '@nestjs/common';
import type Stripe from 'stripe';
import { DataSource } from 'typeorm';
import { Sql, sqlOn } from '../../database/sql';
import type { PurchaseStatus } from '../entities/purchase.entity';
import { deleteGrant, insertGrant } from '../grant-rows';

interface PurchaseRow {
  id: string;
  user_id: string;
  asset_id: string | null;
  status: PurchaseStatus;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Our purchase id on a Checkout Session we created (metadata, else client_reference_id). */
function purchaseIdOf(session: Stripe.Checkout.Session): string | null {
  const id = session.metadata?.purchase_id ?? session.client_reference_id;
  return id && UUID.test(id) ? id : null;
}

function idOf(value: string | { id: string } | null): string | null {
  return typeof value === 'string' ? value : (value?.id ?? null);
}

/**
 * Settles orders from Stripe's verified events: a completed checkout pays the order and grants
 * access, an expired or failed one closes it, a full refund takes the access back. Each event id
 * is recorded in the same transaction, so a replayed or re-delivered event changes nothing.
 */
@Injectable()
export class PaymentEventsService {
  private readonly logger = new Logger(PaymentEventsService.name);

  constructor(private readonly dataSource: DataSource) {}

  /** Handles one verified event; true when it was new, false for one already handled. */
  async handle(event: Stripe.Event): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const sql = sqlOn(manager);
      const purchase = await this.lockPurchase(sql, event);
      const recorded = await sql(
        `INSERT INTO payment_events (event_id, provider, type, purchase_id) VALUES ($1, 'stripe', $2, $3)
         ON CONFLICT (event_id) DO NOTHING RETURNING event_id`,
        [event.id, event.type, purchase?.id ?? null],
      );
      if (recorded.rows.length === 0) return false;
      if (!purchase) {
        if (purchaseEvents.has(event.type))
          this.logger.warn(`Stripe event ${event.id} (${event.type}) names no order of ours`);
        return true;
      }
      await this.apply(sql, event, purchase);
      return true;
    });
  }

  /** The order the event is about, locked for this transaction; null for events we do not act on. */
  private async lockPurchase(sql: Sql, event: Stripe.Event): Promise<PurchaseRow | null> {
    const columns = `id, user_id, asset_id, status`;
    if (event.type.startsWith('checkout.session.')) {
      const purchaseId = purchaseIdOf(event.data.object as Stripe.Checkout.Session);
      if (!purchaseId) return null;
      const found = await sql<PurchaseRow>(
        `SELECT ${columns} FROM purchases WHERE id = $1 AND provider = 'stripe' FOR UPDATE`,
        [purchaseId],
      );
      return found.rows[0] ?? null;
    }
    if (event.type === 'charge.refunded') {
      const paymentIntentId = idOf((event.data.object as Stripe.Charge).payment_intent);
      if (!paymentIntentId) return null;
      const found = await sql<PurchaseRow>(
        `SELECT ${columns} FROM purchases WHERE payment_intent_id = $1 FOR UPDATE`,
        [paymentIntentId],
      );
      return found.rows[0] ?? null;
    }
    return null;
  }

  private async apply(sql: Sql, event: Stripe.Event, purchase: PurchaseRow): Promise<void> {
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded':
        return this.paid(sql, event.data.object, purchase);
      case 'checkout.session.async_payment_failed':
        return this.close(sql, purchase, 'failed');
      case 'checkout.session.expired':
        return this.close(sql, purchase, 'expired');
      case 'charge.refunded':
        return this.refunded(sql, event.data.object, purchase);
    }
  }

  private async paid(sql: Sql, session: Stripe.Checkout.Session, purchase: PurchaseRow): Promise<void> {
    // Delayed methods (bank debits) complete the session unpaid; async_payment_succeeded follows.
    if (session.payment_status !== 'paid') return;
    if (purchase.status === 'paid' || purchase.status === 'refunded') return;
    await sql(
      `UPDATE purchases SET status = 'paid', payment_intent_id = $2, checkout_url = NULL WHERE id = $1`,
      [purchase.id, idOf(session.payment_intent)],
    );
    // A dataset deleted since stays paid for the record; there is nothing left to grant.
    if (purchase.asset_id) await insertGrant(sql, purchase.user_id, purchase.asset_id, 'purchase');
    this.logger.log(`Purchase ${purchase.id} paid through Stripe; access granted`);
  }

  private async close(sql: Sql, purchase: PurchaseRow, status: 'failed' | 'expired'): Promise<void> {
    if (purchase.status !== 'pending') return;
    await sql(`UPDATE purchases SET status = $2, checkout_url = NULL WHERE id = $1`, [purchase.id, status]);
  }

  private async refunded(sql: Sql, charge: Stripe.Charge, purchase: PurchaseRow): Promise<void> {
    // A partial refund is a goodwill gesture: the buyer keeps the dataset.
    if (!charge.refunded || purchase.status !== 'paid') return;
    await sql(`UPDATE purchases SET status = 'refunded' WHERE id = $1`, [purchase.id]);
    if (purchase.asset_id) await deleteGrant(sql, purchase.user_id, purchase.asset_id);
    this.logger.log(`Purchase ${purchase.id} refunded through Stripe; access removed`);
  }
}

/** Event types that always concern one of our orders (a warning when none is found). */
const purchaseEvents = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
  'charge.refunded',
]);
