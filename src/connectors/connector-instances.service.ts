import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { ConnectorLifecycle } from './runs/run-end-listeners';
import { AccessGate, type Caller } from '../access/access-gate.service';
import { SecretBox } from '../common/crypto/secret-box';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { createConnectorTable, dropTable } from '../database/data-tables/data-table-ddl';
import { connectorTableName } from '../database/data-tables/data-table-names';
import { sqlOn } from '../database/sql';
import { InstanceView, toInstanceView } from './instance-views';
import type { ActivateConnectorDto } from './dto/activate-connector.dto';
import type { InstanceSettingsDto } from './dto/instance-settings.dto';
import type { CachedToken, TokenStore } from './engine/auth/token-store';
import { Connector } from './entities/connector.entity';
import { ConnectorInstance } from './entities/connector-instance.entity';
import { ConnectorRun } from './entities/connector-run.entity';
import { furtherTablesOf, instanceTargets, syncFurtherTables } from './instance-operations';
import { checkIterations, defaultMethod, prepareInstanceSettings } from './instance-settings-rules';
import { AuditService } from '../audit/audit.service';

/** A user's connector instances: activation, settings, removal, owner-only (others get 404). */
@Injectable()
export class ConnectorInstancesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly secretBox: SecretBox,
    private readonly gate: AccessGate,
    private readonly lifecycle: ConnectorLifecycle,
    private readonly audit: AuditService,
  ) {}

  private get instances() {
    return this.dataSource.getRepository(ConnectorInstance);
  }

  /** Decrypted auth data; only the engine ever sees it. */
  async authDataOf(instanceId: string): Promise<Record<string, string>> {
    const row = await this.instances
      .createQueryBuilder('instance')
      .addSelect('instance.authDataEncrypted')
      .where('instance.id = :instanceId', { instanceId })
      .getOne();
    if (!row?.authDataEncrypted) return {};
    return JSON.parse(this.secretBox.open(row.authDataEncrypted)) as Record<string, string>;
  }

  /** The instance's OAuth2 token cache, sealed with the same key as its auth data. */
  tokenStoreOf(instanceId: string): TokenStore {
    return {
      load: async () => {
        const row = await this.instances
          .createQueryBuilder('instance')
          .addSelect('instance.tokenCacheEncrypted')
          .where('instance.id = :instanceId', { instanceId })
          .getOne();
        if (!row?.tokenCacheEncrypted) return null;
        return JSON.parse(this.secretBox.open(row.tokenCacheEncrypted)) as CachedToken;
      },
      save: async (token) => {
        await this.instances.update(
          { id: instanceId },
          { tokenCacheEncrypted: token ? this.secretBox.seal(JSON.stringify(token)) : null },
        );
      },
    };
  }

  /** The caller's instances, newest first, as the gate lists them. */
  async mine(caller: Caller): Promise<InstanceView[]> {
    const instances = (await this.gate.ownedInstances(caller)).reverse();
    if (instances.length === 0) return [];
    const ids = instances.map((instance) => instance.id);
    const [connectors, lastRuns, secrets] = await Promise.all([
      this.dataSource
        .getRepository(Connector)
        .findBy({ id: In(instances.map((instance) => instance.connectorId)) }),
      this.dataSource
        .getRepository(ConnectorRun)
        .createQueryBuilder('run')
        .distinctOn(['run.instanceId'])
        .where('run.instanceId IN (:...ids)', { ids })
        .orderBy('run.instanceId')
        .addOrderBy('run.startedAt', 'DESC')
        .getMany(),
      this.dataSource.query(
        `SELECT id FROM connector_instances WHERE id = ANY($1) AND auth_data_encrypted IS NOT NULL`,
        [ids],
      ),
    ]);
    const further = await furtherTablesOf(this.dataSource.manager, ids);
    const listings: Array<{ source_table: string; id: string; title: string }> = await this.dataSource.query(
      `SELECT product.source_table, asset.id, asset.title
         FROM live_products product JOIN assets asset ON asset.id = product.asset_id
        WHERE product.instance_id = ANY($1)`,
      [ids],
    );
    const published = new Map(listings.map(({ source_table, id, title }) => [source_table, { id, title }]));
    const byId = new Map(connectors.map((connector) => [connector.id, connector]));
    const runs = new Map(lastRuns.map((run) => [run.instanceId, run]));
    const withSecrets = new Set((secrets as Array<{ id: string }>).map((row) => row.id));
    return instances.map((instance) => {
      const connector = byId.get(instance.connectorId);
      return toInstanceView(instance, {
        connectorTitle: connector?.title,
        hasAuthData: withSecrets.has(instance.id),
        lastRun: runs.get(instance.id) ?? null,
        published,
        targets: connector
          ? instanceTargets(connector, instance, further.get(instance.id) ?? [])
          : [
              {
                operationId: null,
                tableName: instance.outputTableName,
                readableName: instance.readableName,
                streamReference: `instance-${instance.id}`,
              },
            ],
      });
    });
  }

  async activate(user: AuthenticatedUser, input: ActivateConnectorDto): Promise<{ id: string }> {
    const connector = await this.gate.requireConnector(user, input.connector_id);
    this.checkInterval(user, input.refresh_interval);
    const prepared = prepareInstanceSettings(connector, input, {}, {});
    const tableName = connectorTableName(connector.title);
    const id = await this.dataSource.transaction(async (manager) => {
      const saved = await manager.getRepository(ConnectorInstance).save(
        manager.getRepository(ConnectorInstance).create({
          connectorId: connector.id,
          ownerId: user.id,
          title: input.title?.trim() || connector.title,
          visibility: input.visibility ?? 'private',
          refreshInterval: input.refresh_interval ?? 0,
          settings: prepared.settings,
          iterations: input.iterations ?? [],
          method: input.method ?? defaultMethod(connector),
          headers: prepared.headers ?? {},
          bodyTemplate: input.body_template ?? null,
          operationId: prepared.operationId ?? null,
          authDataEncrypted: this.seal(prepared.authData),
          outputTableName: tableName,
        }),
      );
      await createConnectorTable(sqlOn(manager), tableName);
      if (prepared.furtherOperations?.length)
        await syncFurtherTables(manager, connector, saved.id, prepared.furtherOperations);
      await recountSubscribers(manager, connector.id);
      return saved.id;
    });
    return { id };
  }

  async update(
    user: AuthenticatedUser,
    instanceId: string,
    input: InstanceSettingsDto,
  ): Promise<InstanceView> {
    const instance = await this.gate.requireInstance(user, instanceId);
    const connector = await this.dataSource
      .getRepository(Connector)
      .findOneByOrFail({ id: instance.connectorId });
    this.checkInterval(user, input.refresh_interval);
    const currentAuth = await this.authDataOf(instance.id);
    const prepared = prepareInstanceSettings(
      connector,
      input,
      input.settings ? {} : instance.settings,
      currentAuth,
    );
    if (input.iterations === undefined) checkIterations(instance.iterations, prepared.settings);
    const primary = prepared.operationId !== undefined ? prepared.operationId : instance.operationId;
    await this.dataSource.transaction(async (manager) => {
      await manager.getRepository(ConnectorInstance).save({
        ...instance,
        title: input.title?.trim() || instance.title,
        visibility: input.visibility ?? instance.visibility,
        refreshInterval: input.refresh_interval ?? instance.refreshInterval,
        settings: prepared.settings,
        iterations: input.iterations ?? instance.iterations,
        method: input.method ?? instance.method,
        headers: prepared.headers ?? instance.headers,
        operationId: primary,
        // New credentials make a cached token meaningless.
        ...(input.auth_data ? { tokenCacheEncrypted: null } : {}),
        bodyTemplate: input.body_template !== undefined ? input.body_template || null : instance.bodyTemplate,
        authDataEncrypted: this.seal(prepared.authData),
      });
      if (prepared.furtherOperations !== undefined) {
        await syncFurtherTables(manager, connector, instance.id, prepared.furtherOperations);
      } else if (primary) {
        // A further operation chosen to write the instance's own table no longer needs one of its own.
        const further = (await furtherTablesOf(manager, [instance.id])).get(instance.id) ?? [];
        const kept = further.map((table) => table.operationId).filter((id) => id !== primary);
        if (kept.length !== further.length) await syncFurtherTables(manager, connector, instance.id, kept);
      }
    });
    return (await this.mine(user)).find((view) => view.id === instanceId)!;
  }

  /** Deletes the instance, its runs and further operations (cascade) and its tables, in one transaction. */
  async remove(user: AuthenticatedUser, instanceId: string): Promise<{ message: string }> {
    const instance = await this.gate.requireInstance(user, instanceId);
    await this.dataSource.transaction(async (manager) => {
      await this.lifecycle.checkRemoval(sqlOn(manager), [instance.id]);
      const further = (await furtherTablesOf(manager, [instance.id])).get(instance.id) ?? [];
      await manager.delete(ConnectorInstance, { id: instance.id });
      await this.audit.recordIn(manager, 'connection_deleted', {
        connection_id: instance.id,
        connector_id: instance.connectorId,
      });
      await dropTable(sqlOn(manager), instance.outputTableName);
      for (const table of further) await dropTable(sqlOn(manager), table.outputTableName);
      await recountSubscribers(manager, instance.connectorId);
    });
    return { message: 'Connector removed.' };
  }

  /** Only pro users may schedule runs: a refresh interval above 0 needs the flag. */
  private checkInterval(user: AuthenticatedUser, interval: number | undefined): void {
    if (interval) this.gate.requireFlag(user, 'pro');
  }

  private seal(authData: Record<string, string>): string | null {
    return Object.keys(authData).length > 0 ? this.secretBox.seal(JSON.stringify(authData)) : null;
  }
}

async function recountSubscribers(manager: EntityManager, connectorId: string): Promise<void> {
  await manager.query(
    `UPDATE connectors SET subscriber_count = (SELECT count(*) FROM connector_instances WHERE connector_id = $1)
     WHERE id = $1`,
    [connectorId],
  );
}
