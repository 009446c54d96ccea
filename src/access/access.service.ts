import { randomUUID } from 'node:crypto';
import {
  BadRequestException,
  ForbiddenException,
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
} from '@nestjs/common';
import type { PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import type { AccessDecision } from './access-decision';
import { accessSql, isUuid } from './access-rules';
import type { GrantResult, PurchaseView, RemoveResult } from './grant-result';
import { PAYMENT_PROVIDER, PaymentProvider } from './payments/payment-provider';
import { inTransaction, SqlRunner } from './sql-runner';

const DATASET_NOT_FOUND = 'Dataset not found';
const TABLE_NOT_FOUND = 'Table not found';
const TABLE_NAME_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/;

interface AssetForGrant {
  id: string;
  owner_id: string | null;
  price: string;
  currency: string;
}

/**
 * The one place that decides who may see and read a dataset (spec §6) and that changes access:
 * grants, purchases, removals, and the subscriber count kept exact inside the same transactions.
 * A dataset the caller may not see answers 404 exactly like a missing one.
 */
@Injectable()
export class AccessService {
  private readonly logger = new Logger(AccessService.name);

  constructor(
    private readonly dataSource: DataSource,
    @Inject(PAYMENT_PROVIDER) private readonly payments: PaymentProvider,
  ) {}

  /** SQL snippets of the rules, for list queries that must filter many datasets at once. */
  readonly sql = accessSql;

  /** Whether the caller (undefined = visitor) can see the dataset at all. */
  async canRead(userId: string | undefined, assetId: string): Promise<boolean> {
    return (await this.decide(userId, assetId)) !== null;
  }

  /** The caller's rights on a dataset they can see; NotFound when they cannot see it (or it does not exist). */
  async requireReadable(userId: string | undefined, assetId: string): Promise<AccessDecision> {
    const decision = await this.decide(userId, assetId);
    if (!decision) throw new NotFoundException(DATASET_NOT_FOUND);
    return decision;
  }

  /** Whether the caller may read all rows (owner or holder of a grant). */
  async hasAccess(userId: string | undefined, assetId: string): Promise<boolean> {
    return (await this.decide(userId, assetId))?.hasAccess ?? false;
  }

  /**
   * For full-data reads (grid paging, streaming): NotFound when the dataset is invisible,
   * Forbidden when it is visible (public) but the caller has not got or bought access.
   */
  async requireAccess(userId: string | undefined, assetId: string): Promise<AccessDecision> {
    const decision = await this.requireReadable(userId, assetId);
    if (!decision.hasAccess) throw new ForbiddenException('Get access to this dataset first');
    return decision;
  }

  /** Ids of every dataset the user holds, owned ones included (spec: the access list). */
  async myAssetIds(userId: string | undefined): Promise<string[]> {
    if (!userId) return [];
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT asset.id FROM assets asset WHERE ${accessSql.hasAccess('asset', '$1')} ORDER BY asset.created_at, asset.id`,
      [userId],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Gives the user access. Free datasets are granted at once; paid ones are charged through the
   * payment provider and the order is recorded with the price of that moment. Asking again is
   * harmless: no second purchase, no second count; nor does getting back a dataset once bought.
   */
  async grant(userId: string, assetId: string): Promise<GrantResult> {
    if (!isUuid(assetId)) throw new NotFoundException(DATASET_NOT_FOUND);
    let failure: string | undefined;
    const result = await inTransaction(this.dataSource, async (client) => {
      // One grant attempt per user and dataset at a time, so a double click cannot charge twice.
      await client.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
        `grant:${userId}:${assetId}`,
      ]);
      const asset = await this.visibleAssetForGrant(client, userId, assetId);
      const existing = await client.query<{ reason: GrantResult['reason'] }>(
        `SELECT reason FROM access_grants WHERE user_id = $1 AND asset_id = $2`,
        [userId, assetId],
      );
      if (existing.rows.length > 0) {
        return {
          granted: true,
          already: true,
          assetId,
          reason: existing.rows[0].reason,
        } satisfies GrantResult;
      }
      if (asset.owner_id === userId) {
        await this.insertGrant(client, userId, assetId, 'owner');
        return { granted: true, already: true, assetId, reason: 'owner' } satisfies GrantResult;
      }
      if (Number(asset.price) <= 0) {
        await this.insertGrant(client, userId, assetId, 'free');
        return { granted: true, already: false, assetId, reason: 'free' } satisfies GrantResult;
      }
      // Bought once, owned for good: getting it back after a Remove charges nothing.
      let purchase = await this.paidPurchase(client, userId, assetId);
      if (!purchase) {
        const charged = await this.charge(client, userId, asset);
        if (charged.status !== 'paid') {
          failure = charged.failure;
          return null;
        }
        purchase = charged.view;
      }
      await this.insertGrant(client, userId, assetId, 'purchase');
      return { granted: true, already: false, assetId, reason: 'purchase', purchase } satisfies GrantResult;
    });
    // The failed order stays recorded (committed above); the buyer gets a clear answer.
    if (!result)
      throw new HttpException(`Payment failed: ${failure ?? 'declined'}`, HttpStatus.PAYMENT_REQUIRED);
    return result;
  }

  /** Takes the user's access away. Owners keep theirs; removing access one does not hold is harmless. */
  async remove(userId: string, assetId: string): Promise<RemoveResult> {
    if (!isUuid(assetId)) throw new NotFoundException(DATASET_NOT_FOUND);
    return inTransaction(this.dataSource, async (client) => {
      const asset = await this.visibleAssetForGrant(client, userId, assetId);
      if (asset.owner_id === userId) {
        throw new BadRequestException('You own this dataset; an owner cannot remove their own access.');
      }
      const deleted = await client.query(
        `DELETE FROM access_grants WHERE user_id = $1 AND asset_id = $2 RETURNING asset_id`,
        [userId, assetId],
      );
      if (deleted.rows.length === 0) return { removed: false, assetId };
      await client.query(`UPDATE assets SET subscriber_count = subscriber_count - 1 WHERE id = $1`, [
        assetId,
      ]);
      return { removed: true, assetId };
    });
  }

  /** Records the uploader's own access inside the upload's transaction. */
  async grantOwnerAccess(runner: SqlRunner, userId: string, assetId: string): Promise<void> {
    await this.insertGrant(runner, userId, assetId, 'owner');
  }

  /**
   * The connector-instance table a caller may preview: only the instance's owner; anyone else
   * (visitors included) gets 404. Returns the table name, safe to quote into SQL.
   */
  async requireOwnedConnectorTable(userId: string | undefined, outputTableName: string): Promise<string> {
    if (!userId || !TABLE_NAME_PATTERN.test(outputTableName)) throw new NotFoundException(TABLE_NOT_FOUND);
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM connector_instances WHERE output_table_name = $1 AND owner_id = $2`,
      [outputTableName, userId],
    );
    if (rows.length === 0) throw new NotFoundException(TABLE_NOT_FOUND);
    return outputTableName;
  }

  private async decide(userId: string | undefined, assetId: string): Promise<AccessDecision | null> {
    if (!isUuid(assetId)) return null;
    const rows: { owner_id: string | null; has_access: boolean }[] = await this.dataSource.query(
      `SELECT asset.owner_id, ${accessSql.hasAccess('asset', '$2')} AS has_access
         FROM assets asset WHERE asset.id = $1 AND ${accessSql.visible('asset', '$2')}`,
      [assetId, userId ?? null],
    );
    if (rows.length === 0) return null;
    const [row] = rows;
    return {
      assetId,
      ownerId: row.owner_id,
      owned: !!userId && row.owner_id === userId,
      hasAccess: row.has_access,
    };
  }

  private async visibleAssetForGrant(
    client: PoolClient,
    userId: string,
    assetId: string,
  ): Promise<AssetForGrant> {
    const { rows } = await client.query<AssetForGrant>(
      `SELECT asset.id, asset.owner_id, asset.price, asset.currency FROM assets asset
        WHERE asset.id = $1 AND ${accessSql.visible('asset', '$2')}`,
      [assetId, userId],
    );
    if (rows.length === 0) throw new NotFoundException(DATASET_NOT_FOUND);
    return rows[0];
  }

  /** Adds the grant and, only if it is new, counts the subscriber: the count cannot drift. */
  private async insertGrant(
    runner: SqlRunner,
    userId: string,
    assetId: string,
    reason: GrantResult['reason'],
  ) {
    const inserted = await runner.query(
      `INSERT INTO access_grants (user_id, asset_id, reason) VALUES ($1, $2, $3)
       ON CONFLICT (user_id, asset_id) DO NOTHING RETURNING asset_id`,
      [userId, assetId, reason],
    );
    if (inserted.rows.length > 0) {
      await runner.query(`UPDATE assets SET subscriber_count = subscriber_count + 1 WHERE id = $1`, [
        assetId,
      ]);
    }
  }

  /** The user's earlier paid order for this dataset, if any. */
  private async paidPurchase(
    client: PoolClient,
    userId: string,
    assetId: string,
  ): Promise<PurchaseView | null> {
    const { rows } = await client.query<{
      id: string;
      amount: string;
      currency: string;
      provider: string;
      payment_reference: string | null;
      created_at: Date;
    }>(
      `SELECT id, amount, currency, provider, payment_reference, created_at FROM purchases
        WHERE user_id = $1 AND asset_id = $2 AND status = 'paid' ORDER BY created_at LIMIT 1`,
      [userId, assetId],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id,
      amount: Number(row.amount),
      currency: row.currency,
      status: 'paid',
      provider: row.provider,
      payment_reference: row.payment_reference,
      test_mode: row.provider === 'test',
      created_at: row.created_at.toISOString(),
    };
  }

  private async charge(
    client: PoolClient,
    userId: string,
    asset: AssetForGrant,
  ): Promise<{ status: 'paid' | 'failed'; view: PurchaseView; failure?: string }> {
    const purchaseId = randomUUID();
    const charge = await this.payments.charge({
      amount: asset.price,
      currency: asset.currency,
      userId,
      assetId: asset.id,
      purchaseId,
    });
    const { rows } = await client.query<{ created_at: Date }>(
      `INSERT INTO purchases (id, user_id, asset_id, amount, currency, status, provider, payment_reference)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING created_at`,
      [
        purchaseId,
        userId,
        asset.id,
        asset.price,
        asset.currency,
        charge.status,
        this.payments.name,
        charge.reference,
      ],
    );
    if (charge.status !== 'paid') {
      this.logger.warn(
        `Payment ${purchaseId} for asset ${asset.id} failed at provider ${this.payments.name}`,
      );
    }
    return {
      status: charge.status,
      failure: charge.failureMessage,
      view: {
        id: purchaseId,
        amount: Number(asset.price),
        currency: asset.currency,
        status: charge.status,
        provider: this.payments.name,
        payment_reference: charge.reference,
        test_mode: charge.testMode,
        created_at: rows[0].created_at.toISOString(),
      },
    };
  }
}
