import { normaliseLicence } from '../common/licences';
import { BadRequestException, ConflictException, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccessGate, subscriberCount } from '../access/access-gate.service';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { appendRows, dropTable, lockForAppend, swapTable } from '../database/data-tables/data-table-ddl';
import { takeTable } from '../database/data-tables/take-table';
import { quoteIdentifier } from '../database/data-tables/data-table-names';
import { Sql, sqlOn } from '../database/sql';
import { NotificationsService } from '../notifications/notifications.service';
import { DatasetHooks } from './dataset-hooks';
import { DatasetActivityService } from './activity/dataset-activity.service';
import type { DatasetActivity, DatasetArchived, DatasetRemoved, DatasetRefreshed } from './asset-views';
import type { UpdateAssetDto } from './dto/update-asset.dto';
import type { AssetColumn } from './entities/asset.entity';
import type { LoadMode } from './entities/dataset-version.entity';
import { ColumnProfileService } from './ingest/column-profile.service';
import { recordVersion, StagedUpload } from './ingest/staged-upload';
import { sqlTypeFor } from './ingest/value-kinds';
import { AuditService } from '../audit/audit.service';

/** Days the owner's activity view covers. */
export const ACTIVITY_DAYS = 90;

/** Longest description of one column in the data dictionary. */
export const MAX_DICTIONARY_TEXT = 2000;

export const COLUMNS_CHANGED = "The dataset's columns changed while the file was loading. Upload it again.";

/** Whether a staged table has a dataset's columns: the same names and types, in the same order. */
function sameColumns(staged: AssetColumn[], dataset: AssetColumn[]): boolean {
  return (
    staged.length === dataset.length &&
    staged.every(
      (column, index) => column.name === dataset[index].name && column.type === dataset[index].type,
    )
  );
}

/**
 * What only a dataset's owner may do: change its description, load new rows (replace or append,
 * each kept as a version), and delete it. The AccessGate decides who the owner is ('own').
 */
@Injectable()
export class DatasetOwnerService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly gate: AccessGate,
    private readonly usage: DatasetActivityService,
    private readonly profiles: ColumnProfileService,
    private readonly notifications: NotificationsService,
    private readonly hooks: DatasetHooks,
    private readonly audit: AuditService,
  ) {}

  /** Applies the sent fields (validated like an upload's) in one update. */
  async update(user: AuthenticatedUser, assetId: string, input: UpdateAssetDto): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const { asset } = await this.gate.requireDataset(user, assetId, 'own', manager);
      const changes: Record<string, unknown> = {};
      if (input.title !== undefined) changes.title = input.title;
      if (input.description !== undefined) changes.description = input.description.trim();
      if (input.category !== undefined) changes.category = input.category || 'Other';
      if (input.keywords !== undefined) changes.keywords = input.keywords;
      // A new price or interval is for new subscribers: subscriptions keep the price they were taken at.
      if (input.price !== undefined) changes.price = input.price;
      if (input.billing_interval !== undefined)
        changes.billing_interval = input.billing_interval === 'one_off' ? null : input.billing_interval;
      if (input.trial_days !== undefined) changes.trial_days = input.trial_days;
      if (input.is_public !== undefined) changes.is_public = input.is_public;
      if (input.source !== undefined) changes.source = input.source;
      if (input.licence !== undefined) changes.licence = normaliseLicence(input.licence);
      if (input.image !== undefined) changes.image = input.image || null;
      if (input.dictionary !== undefined) {
        changes.dictionary = JSON.stringify(
          mergeDictionary(asset.columns, asset.dictionary, input.dictionary),
        );
      }
      const entries = Object.entries(changes);
      if (entries.length === 0) return;
      const sql = sqlOn(manager);
      await sql(`SELECT id FROM assets WHERE id = $1 FOR UPDATE`, [asset.id]);
      // Unpublishing what others paid for archives it; publishing it again brings it back.
      if (input.is_public === false && asset.isPublic && (await this.hasBuyers(sql, asset.id)))
        await this.archive(sql, asset);
      if (input.is_public === true) changes.archived_at = null;
      if (input.is_public !== undefined && input.is_public !== asset.isPublic)
        await this.audit.recordIn(sql, input.is_public ? 'listing_published' : 'listing_unpublished', {
          dataset_id: asset.id,
        });
      const changed = Object.entries(changes);
      const assignments = changed.map(([column], index) => `${quoteIdentifier(column)} = $${index + 2}`);
      await sql(`UPDATE assets SET ${assignments.join(', ')}, updated_at = now() WHERE id = $1`, [
        asset.id,
        ...changed.map(([, value]) => value),
      ]);
    });
  }

  /**
   * Loads a staged file into the dataset: `replace` swaps the new table in, `append` adds its
   * rows. The header must be the dataset's and every value must fit its column's type; the
   * dataset keeps its columns. Everything commits at once with the staged table's transaction,
   * so readers see the old rows until then, and a refused file changes nothing.
   */
  async refresh(
    user: AuthenticatedUser,
    assetId: string,
    mode: Exclude<LoadMode, 'initial'>,
    staged: StagedUpload,
  ): Promise<DatasetRefreshed> {
    let profileStopped = false;
    const loading = staged.commitWith(async (sql) => {
      const asset = await this.gate.lockOwnedDataset(sql, user, assetId);
      const loaded = staged.table;
      // The file was loaded into the columns the guard read before the upload, and a dataset's
      // columns never change; a staged table of other columns is refused all the same.
      if (!sameColumns(loaded.columns, asset.columns)) throw new ConflictException(COLUMNS_CHANGED);
      const definitions = asset.columns.map((column) => ({
        name: column.name,
        sqlType: sqlTypeFor(column.type),
      }));
      let rowCount = loaded.rowCount;
      let byteCount = loaded.byteCount;
      if (mode === 'replace') {
        profileStopped = await this.profiles.stopReading(sql, asset.tableName);
        await swapTable(sql, loaded.tableName, asset.tableName);
      } else {
        await lockForAppend(sql, asset.tableName);
        await appendRows(sql, loaded.tableName, asset.tableName, definitions);
        rowCount += Number(asset.rowCount);
        byteCount += Number(asset.byteCount);
      }
      // The old profile stays until the new one is computed, right after the commit.
      await sql(
        `UPDATE assets SET row_count = $2, byte_count = $3, data_updated_at = now(), updated_at = now()
          WHERE id = $1`,
        [asset.id, rowCount, byteCount],
      );
      await recordVersion(sql, {
        assetId: asset.id,
        loadedBy: user.id,
        mode,
        rowCount: loaded.rowCount,
        byteCount: loaded.byteCount,
      });
      return { id: asset.id, mode, rows_loaded: loaded.rowCount, row_count: rowCount };
    });
    const answer = await loading.catch((error: unknown) => {
      // The old rows stay: they get back the profile that was ended for the swap.
      if (profileStopped) this.profiles.schedule(assetId);
      throw error;
    });
    this.profiles.schedule(answer.id);
    return answer;
  }

  /**
   * The last ACTIVITY_DAYS days of use, one entry per day (UTC), oldest first: subscribers
   * (holders other than the owner) at the end of each day, grid views and stream requests. Counts of this
   * process not yet stored are stored first, so the owner sees their own latest views.
   */
  async activity(user: AuthenticatedUser, assetId: string): Promise<DatasetActivity> {
    const { asset } = await this.gate.requireDataset(user, assetId, 'own');
    await this.usage.flush();
    const days: Array<{ day: string; subscribers: number; grid_views: number; stream_requests: number }> =
      await this.dataSource.query(
        `WITH series AS (
           SELECT moment::date AS day
             FROM generate_series((now() AT TIME ZONE 'UTC')::date - ${ACTIVITY_DAYS - 1},
                                  (now() AT TIME ZONE 'UTC')::date, interval '1 day') AS moment)
         SELECT to_char(series.day, 'YYYY-MM-DD') AS day,
                ${subscriberCount('asset', `(series.day + 1)::timestamp AT TIME ZONE 'UTC'`)} AS subscribers,
                COALESCE(activity.grid_views, 0) AS grid_views,
                COALESCE(activity.stream_requests, 0) AS stream_requests
           FROM series
           JOIN assets asset ON asset.id = $1
           LEFT JOIN dataset_daily_activity activity ON activity.asset_id = $1 AND activity.day = series.day
          ORDER BY series.day`,
        [asset.id],
      );
    return { id: asset.id, days };
  }

  /**
   * Moves the owner's personal dataset into an organisation they are an editor (or above) of:
   * from then on its editors manage it and its members read it. Its rows, versions, subscribers
   * and history stay as they are; its uploader keeps only what their role gives them.
   */
  async moveToOrganisation(user: AuthenticatedUser, assetId: string, organisationId: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const asset = await this.gate.requireMovableDataset(user, assetId, organisationId, manager);
      const sql = sqlOn(manager);
      await sql(`UPDATE assets SET organisation_id = $2, updated_at = now() WHERE id = $1`, [
        asset.id,
        organisationId,
      ]);
      await this.audit.recordIn(sql, 'dataset_moved_to_organisation', {
        dataset_id: asset.id,
        organisation_id: organisationId,
      });
    });
  }

  /**
   * Deletes the dataset, its table and every grant; purchases stay in the records (their dataset
   * link becomes empty). Answers how many subscribers (holders other than the owner) lost access.
   * A dataset others paid for is archived instead: its holders keep reading it and are told.
   */
  async remove(user: AuthenticatedUser, assetId: string): Promise<DatasetRemoved | DatasetArchived> {
    return this.dataSource.transaction(async (manager) => {
      const sql = sqlOn(manager);
      const { asset } = await this.gate.requireDataset(user, assetId, 'own', manager);
      await sql(`SELECT id FROM assets WHERE id = $1 FOR UPDATE`, [asset.id]);
      const { rows } = await sql<{ holders: number }>(
        `SELECT ${subscriberCount('asset')} AS holders FROM assets asset WHERE asset.id = $1`,
        [asset.id],
      );
      const holders = rows[0].holders;
      if (await this.hasBuyers(sql, asset.id)) {
        await this.archive(sql, asset);
        await this.hooks.removing(sql, asset, 'archived');
        await this.audit.recordIn(sql, 'dataset_deleted', {
          dataset_id: asset.id,
          archived_for_holders: true,
        });
        return {
          message: `Dataset archived: ${holders} ${holders === 1 ? 'holder keeps' : 'holders keep'} access.`,
          id: asset.id,
          archived: true,
          holders_keep_access: holders,
        };
      }
      await this.hooks.removing(sql, asset, 'deleted');
      await sql(`DELETE FROM assets WHERE id = $1`, [asset.id]);
      await takeTable(sql, asset.tableName);
      await dropTable(sql, asset.tableName);
      await this.audit.recordIn(sql, 'dataset_deleted', {
        dataset_id: asset.id,
        archived_for_holders: false,
      });
      return { message: 'Dataset deleted.', id: asset.id, holders_lost_access: holders };
    });
  }

  /**
   * For an account being deleted, inside its transaction: every personal dataset of the owner is
   * deleted with its table, except those others paid for, which are archived and stay for their
   * holders. Those the owner moved into an organisation stay the organisation's.
   */
  async releaseAllOf(sql: Sql, ownerId: string): Promise<{ deleted: number; archived: number }> {
    const { rows } = await sql<{ id: string; title: string; table_name: string }>(
      `SELECT id, title, table_name FROM assets WHERE owner_id = $1 AND organisation_id IS NULL
        ORDER BY created_at FOR UPDATE`,
      [ownerId],
    );
    let archived = 0;
    for (const asset of rows) {
      if (await this.hasBuyers(sql, asset.id)) {
        await this.archive(sql, { id: asset.id, title: asset.title, ownerId });
        archived++;
      } else {
        await sql(`DELETE FROM assets WHERE id = $1`, [asset.id]);
        await dropTable(sql, asset.table_name);
      }
    }
    return { deleted: rows.length - archived, archived };
  }

  /** Someone other than the owner (a user or an organisation) holds the dataset because they paid for it. */
  private async hasBuyers(sql: Sql, assetId: string): Promise<boolean> {
    const { rows } = await sql(
      `SELECT 1 FROM access_grants WHERE asset_id = $1 AND reason = 'purchase'
       UNION ALL SELECT 1 FROM organisation_grants WHERE asset_id = $1 AND reason = 'purchase' LIMIT 1`,
      [assetId],
    );
    return rows.length > 0;
  }

  /** Takes the dataset out of the catalogue (once) and tells its holders, in the caller's transaction. */
  private async archive(
    sql: Sql,
    asset: { id: string; title: string; ownerId: string | null },
  ): Promise<void> {
    const archived = await sql(
      // Private as well, so the owner's Edit form shows what it is and saving it keeps it archived.
      `UPDATE assets SET archived_at = now(), is_public = false, updated_at = now()
        WHERE id = $1 AND archived_at IS NULL`,
      [asset.id],
    );
    // A live product's refreshes stop with its archive: its holders are told so.
    const live = (await this.hooks.live(asset.id, false)) !== null;
    if (archived.rowCount > 0) await this.notifications.datasetArchived(sql, asset, live);
  }
}

/** The dictionary after applying `changes`: blank texts remove, unknown columns are refused. */
export function mergeDictionary(
  columns: AssetColumn[],
  current: Record<string, string>,
  changes: Record<string, unknown>,
): Record<string, string> {
  const merged = { ...current };
  for (const [name, text] of Object.entries(changes)) {
    if (!columns.some((column) => column.name === name)) {
      throw new BadRequestException(`The dataset has no column "${name}".`);
    }
    if (typeof text !== 'string') throw new BadRequestException(`The description of "${name}" must be text.`);
    if (text.length > MAX_DICTIONARY_TEXT) {
      throw new BadRequestException(
        `The description of "${name}" is longer than ${MAX_DICTIONARY_TEXT} characters.`,
      );
    }
    if (text.trim() === '') delete merged[name];
    else merged[name] = text.trim();
  }
  return merged;
}
