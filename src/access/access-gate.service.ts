import { ConflictException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Asset } from '../assets/entities/asset.entity';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { isUuid } from '../common/uuid';
import { Connector } from '../connectors/entities/connector.entity';
import { ConnectorInstance } from '../connectors/entities/connector-instance.entity';
import { ConnectorInstanceTable } from '../connectors/entities/connector-instance-table.entity';
import { isDataTableName } from '../database/data-tables/data-table-names';
import { requireManager, roleOf } from '../organisations/membership-rules';
import { edits, EDITING_ROLES, OrganisationRole } from '../organisations/organisation-role';
import { ORGANISATION_NOT_FOUND } from '../organisations/organisations.messages';
import { SavedQuery } from '../query/saved/entities/saved-query.entity';
import { sqlOn, type Sql } from '../database/sql';
import type { UserFlag } from '../users/user-flags';

/**
 * Who is asking: a logged-in user (or the owner of an API key), an organisation (a request with
 * one of its API tokens: `id` is the organisation's, `organisationId` says so), or undefined for
 * a visitor. An organisation reads what it owns or holds, as any of its members does, and owns
 * nothing personal: its id is no user's (both are random UUIDs), so no owner_id, grant holder,
 * connector or saved query of a user ever matches it.
 */
export type Caller = (Pick<AuthenticatedUser, 'id'> & { organisationId?: string }) | undefined;

/**
 * What a caller needs of a dataset: `sample` to see it at all (its card, details and the sample
 * preview), `full` to read every row (owner or holder of a grant), `own` to change it.
 */
export type DatasetNeed = 'sample' | 'full' | 'own';

/** A set of datasets for list queries: the catalogue the caller sees, what they hold, what they own. */
export type DatasetScope = 'visible' | 'held' | 'owned';

/** A set of connectors for list queries: the catalogue the caller sees, or what they own. */
export type ConnectorScope = 'visible' | 'owned';

/** A dataset the caller may use as asked, with what they may do with it. */
export interface DatasetAccess {
  asset: Asset;
  /** The caller acts as its owner: uploaded it (a personal one), or edits for its organisation. */
  owned: boolean;
  /**
   * The caller may read every row: owner, holder of a grant (got or bought; their own or one of
   * an organisation they are a member of), or a member of the organisation it belongs to.
   */
  held: boolean;
}

/**
 * Who counts as a dataset's subscriber: a holder of a grant other than its owner (every upload
 * grants its owner access, which is no subscription). An SQL condition: `holder` is the holding
 * user's id, `asset` the alias of the assets table. The stored subscriber_count (the detail
 * page's and the catalogue's figure, and its sort), the owner's activity view and the number a
 * deletion takes access from all count by this rule.
 */
export function isSubscriber(holder: string, asset: string): string {
  return `${holder} IS DISTINCT FROM ${asset}.owner_id`;
}

/**
 * A dataset's subscribers as an SQL number: its holders by the rule above, and each organisation
 * holding it as one; with `before`, those whose grant is older than it.
 */
export function subscriberCount(asset: string, before?: string): string {
  const older = (grant: string) => (before ? ` AND ${grant}.granted_at < ${before}` : '');
  return `((SELECT count(*)::int FROM access_grants subscriber
     WHERE subscriber.asset_id = ${asset}.id AND ${isSubscriber('subscriber.user_id', asset)}${older('subscriber')})
   + (SELECT count(*)::int FROM organisation_grants organisation_subscriber
     WHERE organisation_subscriber.asset_id = ${asset}.id${older('organisation_subscriber')}))`;
}

/**
 * The caller (`caller`, an id or NULL) paid for the dataset `asset` once: getting it back after a
 * Remove costs nothing (GrantsService.grant). An SQL condition.
 */
export function boughtOnce(asset: string, caller: string): string {
  return `EXISTS (SELECT 1 FROM purchases bought WHERE bought.asset_id = ${asset}.id
     AND bought.user_id = CAST(${caller} AS uuid) AND bought.status = 'paid')`;
}

/**
 * A subscription (`subscription`, the alias of the subscriptions table) gives access: trialing,
 * active, or past due within its grace period, and not past the end of a cancelled period.
 * `access_until` holds the earlier of the grace end and the cancelled period's end. An SQL condition.
 */
export function subscriptionInForce(subscription: string): string {
  return `(${subscription}.status IN ('trialing', 'active', 'past_due')
     AND (${subscription}.access_until IS NULL OR ${subscription}.access_until > now()))`;
}

/**
 * A grant row (`grant`, the alias of access_grants) is in force: any reason but 'subscription',
 * or a subscription of its holder to its dataset still in force. Access thus ends at the grace
 * period's or the cancelled period's end, even before the row is swept away. An SQL condition.
 */
export function grantInForce(grant: string): string {
  return `(${grant}.reason <> 'subscription' OR EXISTS (SELECT 1 FROM subscriptions grant_subscription
     WHERE grant_subscription.user_id = ${grant}.user_id AND grant_subscription.asset_id = ${grant}.asset_id
       AND ${subscriptionInForce('grant_subscription')}))`;
}

/** What a caller without the flag an action needs is told. */
export const FLAG_REFUSALS: Record<UserFlag, string> = {
  pro: 'Only pro users can set a refresh interval',
  editor: 'Only blog editors may publish posts',
};

export const DATASET_NOT_FOUND = 'Dataset not found';
export const DATASET_OWNER_ONLY = 'Only the owner can manage this dataset';
export const DATASET_ORGANISATION_EDITORS_ONLY =
  'Only editors, admins and owners of the organisation this dataset belongs to can manage it';
export const ORGANISATION_EDITORS_ONLY =
  'Only editors, admins and owners of this organisation may get, buy or move datasets for it.';
export const DATASET_IN_ORGANISATION = 'This dataset belongs to an organisation already';
export const CONNECTOR_NOT_FOUND = 'Connector not found';
export const CONNECTOR_OWNER_ONLY = 'Only the owner can manage this connector';
export const INSTANCE_NOT_FOUND = 'Connector instance not found';
export const TABLE_NOT_FOUND = 'Table not found';
export const SAVED_QUERY_NOT_FOUND = 'Saved query not found';
export const OWN_ACCOUNT_ONLY = 'You can only generate an API key for your own account';

/**
 * The one place that decides who may see, read or change what (see docs/product.md, Rules and
 * permissions). Every service asks it before reading or changing a user's data. Whatever the
 * caller may not see answers 404 exactly like something missing, so existence does not leak;
 * an owner-only action on something the caller can see answers 403, since hiding it tells nothing.
 */
@Injectable()
export class AccessGate {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The rule for a set of datasets as an SQL condition on `alias` (the assets table), for list
   * queries that filter many datasets at once. `visible` is what the caller may see: public and not
   * archived, or held; `owned` what they act as owner of; `held` what they read in full (see
   * DatasetAccess). `caller` is the placeholder holding the caller's id, or NULL for a visitor.
   */
  datasetCondition(scope: DatasetScope, alias: string, caller: string): string {
    const me = `CAST(${caller} AS uuid)`;
    // A member in one of `roles`; without roles, any member, or the organisation itself (an
    // organisation caller reads like a viewer and edits nothing, so it owns none of its datasets).
    const memberOf = (organisation: string, roles?: readonly OrganisationRole[]) =>
      `(${roles ? '' : `${organisation} = ${me} OR `}EXISTS (SELECT 1 FROM organisation_memberships member
        WHERE member.organisation_id = ${organisation} AND member.user_id = ${me}${
          roles ? ` AND member.role IN (${roles.map((role) => `'${role}'`).join(', ')})` : ''
        }))`;
    // A personal dataset is its uploader's; one of an organisation is its editors' and above,
    // and no longer its uploader's as such (they keep what their role gives them, while it lasts).
    const owns = `(CASE WHEN ${alias}.organisation_id IS NULL
       THEN COALESCE(${alias}.owner_id = ${me}, false)
       ELSE ${memberOf(`${alias}.organisation_id`, EDITING_ROLES)} END)`;
    // Held: owned; a member of the organisation it belongs to (viewers too); a grant of the
    // caller's own (the uploader's 'owner' grant counts only while the dataset is personal, a
    // subscription's while it is in force: grantInForce); or a
    // grant of an organisation the caller is a member of. Membership is read at every request,
    // so a member who leaves or is removed holds none of it from then on.
    const held = `(${owns}
       OR (${alias}.organisation_id IS NOT NULL AND ${memberOf(`${alias}.organisation_id`)})
       OR EXISTS (SELECT 1 FROM access_grants held_grant
         WHERE held_grant.asset_id = ${alias}.id AND held_grant.user_id = ${me}
           AND (held_grant.reason <> 'owner' OR ${alias}.organisation_id IS NULL)
           AND ${grantInForce('held_grant')})
       OR EXISTS (SELECT 1 FROM organisation_grants org_grant
         WHERE org_grant.asset_id = ${alias}.id AND ${memberOf('org_grant.organisation_id')}))`;
    if (scope === 'owned') return owns;
    if (scope === 'held') return held;
    // An archived dataset stays for those who hold it, whatever its public flag says.
    return `((${alias}.is_public AND ${alias}.archived_at IS NULL) OR ${held})`;
  }

  /**
   * The dataset when the caller may use it as `need` says; 404 when the caller cannot see it (or,
   * for `full`, does not hold it), 403 when `own` is asked of a dataset the caller sees but does
   * not own. Inside a transaction, pass its manager so the decision reads the transaction's own view.
   */
  async requireDataset(
    caller: Caller,
    assetId: string,
    need: DatasetNeed,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<DatasetAccess> {
    if (!isUuid(assetId)) throw new NotFoundException(DATASET_NOT_FOUND);
    const scope: DatasetScope = need === 'full' ? 'held' : 'visible';
    const { entities, raw } = await manager
      .getRepository(Asset)
      .createQueryBuilder('asset')
      .addSelect(this.datasetCondition('held', 'asset', ':caller'), 'held')
      .addSelect(this.datasetCondition('owned', 'asset', ':caller'), 'owned')
      .where('asset.id = :assetId', { assetId })
      .andWhere(this.datasetCondition(scope, 'asset', ':caller'))
      .setParameter('caller', caller?.id ?? null)
      .getRawAndEntities<{ held: boolean; owned: boolean }>();
    const [asset] = entities;
    if (!asset) throw new NotFoundException(DATASET_NOT_FOUND);
    const owned = !!caller && raw[0].owned;
    if (need === 'own' && !owned) throw new ForbiddenException(ownerOnly(asset.organisationId));
    return { asset, owned, held: raw[0].held };
  }

  /**
   * The owner's dataset, locked (FOR UPDATE) inside the caller's transaction on a held connection
   * (a refresh's load), so that no other change or removal of it can interleave; 404 when the
   * caller cannot see it, 403 when they see it but do not own it.
   */
  async lockOwnedDataset(sql: Sql, caller: Caller, assetId: string): Promise<Asset> {
    if (!isUuid(assetId)) throw new NotFoundException(DATASET_NOT_FOUND);
    const { rows } = await sql<{ owned: boolean; organisation_id: string | null }>(
      `SELECT ${this.datasetCondition('owned', 'asset', '$2')} AS owned, asset.organisation_id
         FROM assets asset
        WHERE asset.id = $1 AND ${this.datasetCondition('visible', 'asset', '$2')} FOR UPDATE OF asset`,
      [assetId, caller?.id ?? null],
    );
    if (rows.length === 0) throw new NotFoundException(DATASET_NOT_FOUND);
    if (!rows[0].owned) throw new ForbiddenException(ownerOnly(rows[0].organisation_id));
    const asset = await this.dataSource.getRepository(Asset).findOneBy({ id: assetId });
    if (!asset) throw new NotFoundException(DATASET_NOT_FOUND);
    return asset;
  }

  /**
   * The caller's role in an organisation they may get, buy or move datasets for (editor and
   * above): 404 when they are not a member (as for the organisation's own routes), 403 for a
   * viewer.
   */
  async requireOrganisationEditor(
    caller: Caller,
    organisationId: string,
    manager?: EntityManager,
  ): Promise<OrganisationRole> {
    if (!caller) throw new NotFoundException(ORGANISATION_NOT_FOUND);
    const role = await roleOf(sqlOn(manager ?? this.dataSource), organisationId, caller.id);
    if (!edits(role)) throw new ForbiddenException(ORGANISATION_EDITORS_ONLY);
    return role;
  }

  /**
   * The caller's role in an organisation whose tokens they manage (owner or admin): 404 when they
   * are not a member, 403 for editors and viewers. An organisation's token manages nothing.
   */
  async requireOrganisationManager(
    caller: Caller,
    organisationId: string,
    manager?: EntityManager,
  ): Promise<OrganisationRole> {
    if (!caller || caller.organisationId) throw new NotFoundException(ORGANISATION_NOT_FOUND);
    const role = await roleOf(sqlOn(manager ?? this.dataSource), organisationId, caller.id);
    requireManager(role);
    return role;
  }

  /**
   * A personal dataset its owner may move into an organisation they edit for, locked for the
   * move's transaction: 404/403 as for any owner's change, 409 when it belongs to one already.
   */
  async requireMovableDataset(
    caller: Caller,
    assetId: string,
    organisationId: string,
    manager: EntityManager,
  ): Promise<Asset> {
    const asset = await this.lockOwnedDataset(sqlOn(manager), caller, assetId);
    if (asset.organisationId !== null) throw new ConflictException(DATASET_IN_ORGANISATION);
    await this.requireOrganisationEditor(caller, organisationId, manager);
    return asset;
  }

  /** Every dataset the user may read in full (owned ones included), oldest first: their access list. */
  async heldDatasets(caller: Caller): Promise<Asset[]> {
    if (!caller) return [];
    return this.dataSource
      .getRepository(Asset)
      .createQueryBuilder('asset')
      .where(this.datasetCondition('held', 'asset', ':caller'), { caller: caller.id })
      .orderBy('asset.createdAt', 'ASC')
      .addOrderBy('asset.id', 'ASC')
      .getMany();
  }

  /**
   * The rule for a set of connectors as an SQL condition on `alias` (the connectors table), like
   * datasetCondition: a private connector is seen by its owner only.
   */
  connectorCondition(scope: ConnectorScope, alias: string, caller: string): string {
    const owns = `COALESCE(${alias}.owner_id = CAST(${caller} AS uuid), false)`;
    return scope === 'owned' ? owns : `(${alias}.is_public OR ${owns})`;
  }

  /**
   * A connector the caller may see and connect (public, or their own); 404 otherwise, so a
   * private connector's existence does not leak.
   */
  async requireConnector(caller: Caller, connectorId: string): Promise<Connector> {
    const connector = isUuid(connectorId)
      ? await this.dataSource
          .getRepository(Connector)
          .createQueryBuilder('connector')
          .where('connector.id = :connectorId', { connectorId })
          .andWhere(this.connectorCondition('visible', 'connector', ':caller'), {
            caller: caller?.id ?? null,
          })
          .getOne()
      : null;
    if (!connector) throw new NotFoundException(CONNECTOR_NOT_FOUND);
    return connector;
  }

  /**
   * A connector its uploader may change or delete, locked for the caller's transaction; 404 when
   * the caller cannot see it (a private one of someone else), 403 when they see it but did not
   * upload it.
   */
  async requireOwnConnector(
    caller: Caller,
    connectorId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Connector> {
    const connector = isUuid(connectorId)
      ? await manager
          .getRepository(Connector)
          .createQueryBuilder('connector')
          .setLock('pessimistic_write')
          .where('connector.id = :connectorId', { connectorId })
          .andWhere(this.connectorCondition('visible', 'connector', ':caller'), {
            caller: caller?.id ?? null,
          })
          .getOne()
      : null;
    if (!connector) throw new NotFoundException(CONNECTOR_NOT_FOUND);
    if (!caller || connector.ownerId !== caller.id) throw new ForbiddenException(CONNECTOR_OWNER_ONLY);
    return connector;
  }

  /** A connector instance: only its owner may see, change, run or remove it. */
  requireInstance(caller: Caller, instanceId: string): Promise<ConnectorInstance> {
    return this.ownedInstance(caller, isUuid(instanceId) ? { id: instanceId } : null, INSTANCE_NOT_FOUND);
  }

  /** Every connector instance the caller owns, oldest first: the connector tables they may read. */
  async ownedInstances(caller: Caller): Promise<ConnectorInstance[]> {
    if (!caller) return [];
    return this.dataSource
      .getRepository(ConnectorInstance)
      .find({ where: { ownerId: caller.id }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /**
   * The instance behind a connector table (its own, or a further operation's): only its owner
   * may read the table.
   */
  async requireConnectorTable(caller: Caller, tableName: string): Promise<ConnectorInstance> {
    const further =
      caller && isDataTableName(tableName)
        ? await this.dataSource
            .getRepository(ConnectorInstanceTable)
            .findOneBy({ outputTableName: tableName })
        : null;
    if (further) return this.ownedInstance(caller, { id: further.instanceId }, TABLE_NOT_FOUND);
    const where = isDataTableName(tableName) ? { outputTableName: tableName } : null;
    return this.ownedInstance(caller, where, TABLE_NOT_FOUND);
  }

  /** A further operation's table (by its id) and its instance: only the instance's owner may read it. */
  async requireInstanceTable(
    caller: Caller,
    tableId: string,
  ): Promise<{ instance: ConnectorInstance; table: ConnectorInstanceTable }> {
    const table =
      caller && isUuid(tableId)
        ? await this.dataSource.getRepository(ConnectorInstanceTable).findOneBy({ id: tableId })
        : null;
    if (!table) throw new NotFoundException(TABLE_NOT_FOUND);
    const instance = await this.ownedInstance(caller, { id: table.instanceId }, TABLE_NOT_FOUND);
    return { instance, table };
  }

  /** The further operations' tables of every instance the caller owns, with their instances. */
  async ownedInstanceTables(
    caller: Caller,
  ): Promise<Array<{ instance: ConnectorInstance; table: ConnectorInstanceTable }>> {
    if (!caller) return [];
    const tables = await this.dataSource
      .getRepository(ConnectorInstanceTable)
      .createQueryBuilder('table')
      .innerJoinAndSelect('table.instance', 'instance')
      .where('instance.ownerId = :owner', { owner: caller.id })
      .orderBy('instance.createdAt', 'ASC')
      .addOrderBy('instance.id', 'ASC')
      .addOrderBy('table.operationId', 'ASC')
      .getMany();
    return tables.map(({ instance, ...table }) => ({
      instance: instance!,
      table: table as ConnectorInstanceTable,
    }));
  }

  /** The caller's instance matching `where`; 404 with `notFound` for anyone else or a malformed key. */
  private async ownedInstance(
    caller: Caller,
    where: { id: string } | { outputTableName: string } | null,
    notFound: string,
  ): Promise<ConnectorInstance> {
    const instance =
      caller && where
        ? await this.dataSource.getRepository(ConnectorInstance).findOneBy({ ...where, ownerId: caller.id })
        : null;
    if (!instance) throw new NotFoundException(notFound);
    return instance;
  }

  /** A saved query: private to the user who saved it, so anyone else's is as missing as none. */
  async requireSavedQuery(caller: Caller, savedQueryId: string): Promise<SavedQuery> {
    const saved =
      caller && isUuid(savedQueryId)
        ? await this.dataSource.getRepository(SavedQuery).findOneBy({ id: savedQueryId, userId: caller.id })
        : null;
    if (!saved) throw new NotFoundException(SAVED_QUERY_NOT_FOUND);
    return saved;
  }

  /** A user may act only on their own account (e.g. generate an API key for their own e-mail). */
  requireOwnAccount(user: AuthenticatedUser, email: string): void {
    if (email.trim().toLowerCase() !== user.email.toLowerCase()) {
      throw new ForbiddenException(OWN_ACCOUNT_ONLY);
    }
  }

  /**
   * Refuses a caller without the flag. The user is loaded afresh on every request (session or
   * API key), so a flag switched off takes effect at the caller's next request.
   */
  requireFlag(user: AuthenticatedUser, flag: UserFlag): void {
    const holds = flag === 'pro' ? user.proUser : user.blogEditor;
    if (!holds) throw new ForbiddenException(FLAG_REFUSALS[flag]);
  }
}

/** Who may manage a dataset that the caller may see but not change, in the refusal's words. */
function ownerOnly(organisationId: string | null): string {
  return organisationId === null ? DATASET_OWNER_ONLY : DATASET_ORGANISATION_EDITORS_ONLY;
}
