import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import type { Sql } from '../database/sql';
import type { NoticeKind } from './entities/notification.entity';
import { archivedNotice, NoticeText, OrderFacts, receiptNotice, refundNotice } from './notice-texts';
import {
  subscriptionEndedNotice,
  SubscriptionFacts,
  subscriptionPastDueNotice,
} from './subscription-notice-texts';
import type { NoticeView } from './notice-view';
import {
  columnsAddedNotice,
  productEndedNotice,
  ProductFacts,
  recoveredNotice,
  schemaAcceptedNotice,
  schemaHeldNotice,
  staleNotice,
} from './product-notice-texts';

/** A live product and its owner, as its notices need them. */
export interface ProductNoticeFacts extends ProductFacts {
  ownerId: string | null;
}

interface OrderRow {
  user_id: string;
  id: string;
  title: string;
  amount: string;
  currency: string;
  asset_id: string | null;
  readable_name: string | null;
}

/**
 * Turns what happened (a purchase paid, a refund, a dataset archived) into notices for the users
 * concerned. Each method writes on the connection of the change it reports, inside its
 * transaction: the notice exists exactly when the change does. NotificationMailer e-mails them.
 */
@Injectable()
export class NotificationsService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The buyer's receipt for a paid order. */
  async purchasePaid(sql: Sql, purchaseId: string): Promise<void> {
    const order = await this.order(sql, purchaseId);
    await this.add(sql, order.user_id, 'receipt', receiptNotice(this.config.appOrigin, this.facts(order)));
  }

  /** The buyer's notice that a full refund went through, and whether it took their access away. */
  async purchaseRefunded(sql: Sql, purchaseId: string, accessRemoved: boolean): Promise<void> {
    const order = await this.order(sql, purchaseId);
    const notice = refundNotice(this.config.appOrigin, this.facts(order), accessRemoved);
    await this.add(sql, order.user_id, 'refund', notice);
  }

  /** The subscriber's notice that a renewal failed and until when they keep access. */
  async subscriptionPastDue(
    sql: Sql,
    userId: string,
    facts: SubscriptionFacts,
    graceEnds: Date,
  ): Promise<void> {
    const notice = subscriptionPastDueNotice(this.config.appOrigin, facts, graceEnds);
    await this.add(sql, userId, 'subscription_past_due', notice);
  }

  /** The subscriber's notice that their subscription no longer gives access to the dataset. */
  async subscriptionEnded(sql: Sql, userId: string, facts: SubscriptionFacts): Promise<void> {
    await this.add(sql, userId, 'subscription_ended', subscriptionEndedNotice(this.config.appOrigin, facts));
  }

  /** A notice to every holder (the owner aside) of a dataset its owner archived. */
  async datasetArchived(
    sql: Sql,
    dataset: { id: string; title: string; ownerId: string | null },
    live = false,
  ): Promise<void> {
    const notice = archivedNotice(this.config.appOrigin, dataset, live);
    await sql(
      `INSERT INTO notifications (user_id, kind, subject, text)
       SELECT holder.user_id, 'dataset_archived', $3, $4 FROM access_grants holder
        WHERE holder.asset_id = $1 AND holder.user_id IS DISTINCT FROM $2::uuid`,
      [dataset.id, dataset.ownerId, notice.subject, notice.text],
    );
  }

  /** A live product went stale: one notice per holder; the owner's says why the last refresh failed. */
  async productStale(
    sql: Sql,
    product: ProductNoticeFacts,
    since: Date,
    lastError: string | null,
  ): Promise<void> {
    await this.toSubscribers(
      sql,
      product,
      'product_stale',
      staleNotice(this.config.appOrigin, product, since),
    );
    if (product.ownerId)
      await this.add(
        sql,
        product.ownerId,
        'product_stale',
        staleNotice(this.config.appOrigin, product, since, { error: lastError }),
      );
  }

  /** A stale live product was refreshed: holders and owner are told once. */
  async productRecovered(sql: Sql, product: ProductNoticeFacts): Promise<void> {
    const notice = recoveredNotice(this.config.appOrigin, product);
    await this.toSubscribers(sql, product, 'product_recovered', notice);
    if (product.ownerId) await this.add(sql, product.ownerId, 'product_recovered', notice);
  }

  /** The owner's notice that a run is held because it would change the published columns. */
  async productSchemaHeld(sql: Sql, product: ProductNoticeFacts, change: string): Promise<void> {
    if (!product.ownerId) return;
    const notice = schemaHeldNotice(this.config.appOrigin, product, change);
    await this.add(sql, product.ownerId, 'product_schema_change', notice);
  }

  /** Holders are told of an accepted schema change in the transaction that puts it in. */
  async productSchemaAccepted(sql: Sql, product: ProductNoticeFacts, change: string): Promise<void> {
    const notice = schemaAcceptedNotice(this.config.appOrigin, product, change);
    await this.toSubscribers(sql, product, 'product_schema_change', notice);
  }

  /** Holders are told of columns a refresh added upstream, in the transaction that puts them in. */
  async productColumnsAdded(sql: Sql, product: ProductNoticeFacts, added: string[]): Promise<void> {
    const notice = columnsAddedNotice(this.config.appOrigin, product, added);
    await this.toSubscribers(sql, product, 'product_schema_change', notice);
  }

  /** Holders of a live product its owner unpublished or deleted. */
  async productEnded(sql: Sql, product: ProductNoticeFacts, buyersKeep: boolean): Promise<void> {
    const notice = productEndedNotice(this.config.appOrigin, product, buyersKeep);
    await this.toSubscribers(sql, product, 'product_ended', notice);
  }

  /** The user's notices, newest first. */
  async forUser(userId: string): Promise<NoticeView[]> {
    const rows: Array<{ id: string; kind: NoticeKind; subject: string; text: string; created_at: Date }> =
      await this.dataSource.query(
        `SELECT id, kind, subject, text, created_at FROM notifications
          WHERE user_id = $1 ORDER BY created_at DESC, id LIMIT 200`,
        [userId],
      );
    return rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() }));
  }

  /** One notice to every holder of the dataset but its owner. */
  private async toSubscribers(
    sql: Sql,
    product: ProductNoticeFacts,
    kind: NoticeKind,
    notice: NoticeText,
  ): Promise<void> {
    await sql(
      `INSERT INTO notifications (user_id, kind, subject, text)
       SELECT holder.user_id, $3, $4, $5 FROM access_grants holder
        WHERE holder.asset_id = $1 AND holder.user_id IS DISTINCT FROM $2::uuid`,
      [product.id, product.ownerId, kind, notice.subject, notice.text],
    );
  }

  private async add(sql: Sql, userId: string, kind: NoticeKind, notice: NoticeText): Promise<void> {
    await sql(`INSERT INTO notifications (user_id, kind, subject, text) VALUES ($1, $2, $3, $4)`, [
      userId,
      kind,
      notice.subject,
      notice.text,
    ]);
  }

  private async order(sql: Sql, purchaseId: string): Promise<OrderRow> {
    const { rows } = await sql<OrderRow>(
      `SELECT purchase.user_id, purchase.id, purchase.title, purchase.amount::text AS amount, purchase.currency,
              purchase.asset_id, asset.readable_name
         FROM purchases purchase LEFT JOIN assets asset ON asset.id = purchase.asset_id
        WHERE purchase.id = $1`,
      [purchaseId],
    );
    if (!rows[0]) throw new Error(`No purchase ${purchaseId}`);
    return rows[0];
  }

  private facts(order: OrderRow): OrderFacts {
    return {
      orderId: order.id,
      title: order.title,
      amount: order.amount,
      currency: order.currency,
      at: new Date(),
      assetId: order.asset_id,
      tableName: order.readable_name,
    };
  }
}
