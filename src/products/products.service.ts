import { randomUUID } from 'node:crypto';
import {
  BadRequestException,
  ConflictException,
  Injectable,
  NotFoundException,
  OnModuleInit,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccessGate } from '../access/access-gate.service';
import { DatasetHooks } from '../assets/dataset-hooks';
import { DatasetLoadsService } from '../assets/dataset-loads.service';
import { mergeDictionary } from '../assets/dataset-owner.service';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { ConnectorLifecycle } from '../connectors/runs/run-end-listeners';
import { datasetTableName } from '../database/data-tables/data-table-names';
import { isUniqueViolation, Sql } from '../database/sql';
import { NotificationsService } from '../notifications/notifications.service';
import type { PublishProductDto } from './dto/publish-product.dto';
import { LiveViews } from './live-views';
import { copySourceTable, datasetColumns, sourceColumns } from './product-table';
import { lockProduct, LockedProduct, ProductRefreshService } from './product-refresh.service';
import { describeSchemaChange, schemaChange } from './schema-change';
import { AuditService } from '../audit/audit.service';

export const NOT_LIVE = 'This dataset is not published from a connection.';
export const NOTHING_HELD = 'No schema change is waiting for this dataset.';

const alreadyPublished = (table: string, title: string) =>
  `The table "${table}" is already published as "${title}".`;

/**
 * Live products: publishes a connection's table as a dataset, lets the owner accept or dismiss a
 * held schema change, and keeps connections and datasets from leaving while the other needs them.
 */
@Injectable()
export class ProductsService implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly gate: AccessGate,
    private readonly loads: DatasetLoadsService,
    private readonly refreshes: ProductRefreshService,
    private readonly notifications: NotificationsService,
    private readonly lifecycle: ConnectorLifecycle,
    private readonly datasetHooks: DatasetHooks,
    private readonly views: LiveViews,
    private readonly audit: AuditService,
  ) {}

  onModuleInit(): void {
    this.lifecycle.onInstanceRemoval((sql, instanceIds) => this.refuseRemovalOfSources(sql, instanceIds));
    this.datasetHooks.onRemoving((sql, dataset, outcome) => this.productLeaving(sql, dataset, outcome));
    this.datasetHooks.describeLiveWith((assetId, owner) => this.views.describe(assetId, owner));
  }

  /** A new dataset holding the table's rows now; each later run of the connection refreshes it. */
  async publish(
    user: AuthenticatedUser,
    instanceId: string,
    input: PublishProductDto,
  ): Promise<{ id: string; redirectUrl: string }> {
    const instance = await this.gate.requireInstance(user, instanceId);
    const assetId = randomUUID();
    await this.refreshes
      .inTransaction(async (sql) => {
        // Held until the commit: a removal of the connection waits, then sees the product.
        await sql(`SELECT 1 FROM connector_instances WHERE id = $1 FOR SHARE`, [instance.id]);
        const sourceTable = await this.tableOf(sql, instance.id, input.table);
        const { rows: published } = await sql<{ title: string }>(
          `SELECT asset.title FROM live_products product JOIN assets asset ON asset.id = product.asset_id
            WHERE product.source_table = $1`,
          [sourceTable],
        );
        if (published[0]) throw new ConflictException(alreadyPublished(input.table, published[0].title));
        const columns = datasetColumns(await sourceColumns(sql, sourceTable));
        if (columns.length === 0)
          throw new BadRequestException(
            `The table "${input.table}" has no columns yet: run the connection before publishing it.`,
          );
        const dictionary = mergeDictionary(columns, {}, input.dictionary ?? {});
        const tableName = datasetTableName(assetId);
        const rowCount = await copySourceTable(sql, sourceTable, tableName, columns);
        await this.loads.create(
          sql,
          assetId,
          {
            ownerId: user.id,
            title: input.title,
            description: input.description?.trim() ?? '',
            category: input.category || 'Other',
            keywords: input.keywords ?? [],
            price: input.price ?? '0',
            isPublic: input.is_public ?? true,
            image: input.image || null,
            licence: input.licence ?? '',
            source: 'Live connection',
            author: user.name,
            dictionary,
          },
          { tableName, columns, rowCount },
        );
        if (input.is_public ?? true)
          await this.audit.recordIn(sql, 'listing_published', {
            dataset_id: assetId,
            connection_id: instance.id,
          });
        await sql(`INSERT INTO live_products (asset_id, instance_id, source_table) VALUES ($1, $2, $3)`, [
          assetId,
          instance.id,
          sourceTable,
        ]);
      })
      .catch((error: unknown) => {
        // Two publishes of one table at once: the second meets the first one's product.
        if (isUniqueViolation(error))
          throw new ConflictException(`The table "${input.table}" is already published.`);
        throw error;
      });
    this.loads.loaded(assetId);
    return { id: assetId, redirectUrl: `/dataset_profile/${assetId}` };
  }

  /**
   * Publishes what the connection's table holds now, with its new columns and types. Holders are
   * told in the same transaction, so no one reads the new columns before the notice exists.
   */
  async acceptSchemaChange(
    user: AuthenticatedUser,
    assetId: string,
  ): Promise<{ message: string; id: string }> {
    await this.gate.requireDataset(user, assetId, 'own');
    await this.refreshes.inTransaction(async (sql) => {
      const product = await this.heldProduct(sql, assetId);
      const next = await sourceColumns(sql, product.source_table);
      const change = schemaChange(
        product.columns.map(({ name, type }) => ({ name, type })),
        next,
      );
      await this.notifications.productSchemaAccepted(
        sql,
        { id: product.asset_id, title: product.title, ownerId: product.owner_id },
        describeSchemaChange(change),
      );
      await this.refreshes.loadVersion(sql, product, next, randomUUID());
      await this.refreshes.markFresh(
        sql,
        product,
        change.added.map((column) => column.name),
      );
    });
    this.loads.loaded(assetId);
    return { message: 'Schema change accepted: the new columns are published.', id: assetId };
  }

  /** Forgets the held change; the published data stays, and the next run is checked again. */
  async dismissSchemaChange(
    user: AuthenticatedUser,
    assetId: string,
  ): Promise<{ message: string; id: string }> {
    await this.gate.requireDataset(user, assetId, 'own');
    await this.refreshes.inTransaction(async (sql) => {
      await this.heldProduct(sql, assetId);
      await sql(
        `UPDATE live_products SET pending_change = NULL, pending_detected_at = NULL WHERE asset_id = $1`,
        [assetId],
      );
    });
    return { message: 'Schema change dismissed: the published data stays as it was.', id: assetId };
  }

  private async heldProduct(sql: Sql, assetId: string): Promise<LockedProduct> {
    const product = await lockProduct(sql, assetId);
    if (!product) throw new NotFoundException(NOT_LIVE);
    if (!product.pending_change) throw new ConflictException(NOTHING_HELD);
    return product;
  }

  /** The table of the instance named by its readable name (or its own name). */
  private async tableOf(sql: Sql, instanceId: string, table: string): Promise<string> {
    const { rows } = await sql<{ output_table_name: string }>(
      `SELECT output_table_name FROM connector_instances
        WHERE id = $1 AND (readable_name = $2 OR output_table_name = $2)
       UNION ALL
       SELECT output_table_name FROM connector_instance_tables
        WHERE instance_id = $1 AND (readable_name = $2 OR output_table_name = $2)`,
      [instanceId, table],
    );
    if (!rows[0]) throw new BadRequestException(`The connection has no table "${table}".`);
    return rows[0].output_table_name;
  }

  /** A connection feeding a product stays until the product is unpublished. */
  private async refuseRemovalOfSources(sql: Sql, instanceIds: string[]): Promise<void> {
    // Locked first: a publish that has not committed yet is waited for, then seen.
    await sql(`SELECT 1 FROM connector_instances WHERE id = ANY($1::uuid[]) FOR UPDATE`, [instanceIds]);
    const { rows } = await sql<{ title: string }>(
      `SELECT asset.title FROM live_products product JOIN assets asset ON asset.id = product.asset_id
        WHERE product.instance_id = ANY($1::uuid[]) ORDER BY product.created_at LIMIT 1`,
      [instanceIds],
    );
    if (rows[0])
      throw new ConflictException(
        `This connection feeds the published dataset “${rows[0].title}”: unpublish it first.`,
      );
  }

  /**
   * A live dataset deleted or archived stops being refreshed. Deleted, its holders are told here;
   * archived (others paid for it), the archive notice tells them they keep the last data.
   */
  private async productLeaving(
    sql: Sql,
    dataset: { id: string; title: string; ownerId: string | null },
    outcome: 'deleted' | 'archived',
  ): Promise<void> {
    const { rowCount } = await sql(`DELETE FROM live_products WHERE asset_id = $1`, [dataset.id]);
    if (rowCount > 0 && outcome === 'deleted') await this.notifications.productEnded(sql, dataset, false);
  }
}
