import { Injectable, NotFoundException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccessGate, Caller } from '../access/access-gate.service';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { isUuid } from '../common/uuid';
import { tableColumns, TableColumn } from '../database/data-tables/data-table-catalog';
import { ROW_ID_COLUMN } from '../database/data-tables/data-table-names';
import { sqlOn } from '../database/sql';
import { UsersService } from '../users/users.service';
import type { ConnectorInstance } from '../connectors/entities/connector-instance.entity';
import type { ConnectorInstanceTable } from '../connectors/entities/connector-instance-table.entity';
import type { SourceColumn, StreamSource } from './stream-source';

const INSTANCE_REFERENCE = /^instance-(.*)$/i;
const TABLE_REFERENCE = /^table-(.*)$/i;

/** A table to stream before its columns are known. */
interface SourceTable {
  kind: StreamSource['kind'];
  id: string;
  title: string;
  tableName: string;
  /** The dataset's own column list (names and labels); none for a connector table. */
  listed?: Array<{ name: string; label?: string }>;
}

/**
 * Who a key belongs to and which tables its owner may read, as the AccessGate decides: a
 * dataset streams to its owner and to holders of an access grant; a connector instance's table
 * only to the instance's owner. Anything else looks missing (null), so existence does not leak.
 */
@Injectable()
export class StreamAccessService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly gate: AccessGate,
  ) {}

  /** The verified owner of a personal API key; a replaced key matches no one at once. */
  findUserByApiKey(key: string): Promise<AuthenticatedUser | null> {
    return this.users.findByApiKey(key);
  }

  /**
   * A dataset (`<assetId>`) or connector instance table (`instance-<instanceId>`; a bare instance
   * id works too) the user may read, with its columns; null when missing or not theirs.
   */
  async findReadableSource(caller: Caller, reference: string): Promise<StreamSource | null> {
    const instanceReference = INSTANCE_REFERENCE.exec(reference);
    if (instanceReference) return this.ownInstance(caller, instanceReference[1]);
    const tableReference = TABLE_REFERENCE.exec(reference);
    if (tableReference) return this.ownInstanceTable(caller, tableReference[1]);
    if (!isUuid(reference)) return null;
    const dataset = await orMissing(this.gate.requireDataset(caller, reference, 'full'));
    if (dataset) {
      const { asset } = dataset;
      const [source] = await this.withColumns([
        {
          kind: 'asset',
          id: asset.id,
          title: asset.title,
          tableName: asset.tableName,
          listed: asset.columns,
        },
      ]);
      return source;
    }
    return this.ownInstance(caller, reference);
  }

  /** Every dataset the user owns or holds a grant for, oldest first, with columns. */
  async heldDatasets(caller: Caller): Promise<StreamSource[]> {
    const assets = await this.gate.heldDatasets(caller);
    return this.withColumns(
      assets.map((asset) => ({
        kind: 'asset',
        id: asset.id,
        title: asset.title,
        tableName: asset.tableName,
        listed: asset.columns,
      })),
    );
  }

  /** Everything the user may read: held datasets, then the tables of their own connector instances. */
  async readableSources(caller: Caller): Promise<StreamSource[]> {
    const [assets, instances, furtherTables] = await Promise.all([
      this.gate.heldDatasets(caller),
      this.gate.ownedInstances(caller),
      this.gate.ownedInstanceTables(caller),
    ]);
    return this.withColumns([
      ...assets.map((asset): SourceTable => ({
        kind: 'asset',
        id: asset.id,
        title: asset.title,
        tableName: asset.tableName,
        listed: asset.columns,
      })),
      ...instances.map((instance): SourceTable => ({
        kind: 'instance',
        id: instance.id,
        title: instance.title,
        tableName: instance.outputTableName,
      })),
      ...furtherTables.map(({ instance, table }) => furtherSource(instance, table)),
    ]);
  }

  private async ownInstanceTable(caller: Caller, tableId: string): Promise<StreamSource | null> {
    const owned = await orMissing(this.gate.requireInstanceTable(caller, tableId));
    if (!owned) return null;
    const [source] = await this.withColumns([furtherSource(owned.instance, owned.table)]);
    return source;
  }

  private async ownInstance(caller: Caller, instanceId: string): Promise<StreamSource | null> {
    const instance = await orMissing(this.gate.requireInstance(caller, instanceId));
    if (!instance) return null;
    const [source] = await this.withColumns([
      { kind: 'instance', id: instance.id, title: instance.title, tableName: instance.outputTableName },
    ]);
    return source;
  }

  /**
   * The real columns of each table from the catalogue (one query for all): datasets keep the
   * columns and labels their metadata lists, connector tables stream every column under its name.
   */
  private async withColumns(tables: SourceTable[]): Promise<StreamSource[]> {
    const catalog = await tableColumns(
      sqlOn(this.dataSource),
      tables.map((table) => table.tableName),
    );
    return tables.map(({ kind, id, title, tableName, listed }) => ({
      kind,
      id,
      title,
      tableName,
      columns: sourceColumns(listed, catalog.get(tableName)),
      hasRowId: kind === 'asset' && !!catalog.get(tableName)?.some((column) => column.name === ROW_ID_COLUMN),
    }));
  }
}

/** A further operation's table, titled by its instance and operation. */
function furtherSource(instance: ConnectorInstance, table: ConnectorInstanceTable): SourceTable {
  return {
    kind: 'table',
    id: table.id,
    title: `${instance.title} ${table.operationId}`,
    tableName: table.outputTableName,
  };
}

/** The gate's answer, or null where it says the thing is missing for this caller. */
async function orMissing<T>(decision: Promise<T>): Promise<T | null> {
  try {
    return await decision;
  } catch (error) {
    if (error instanceof NotFoundException) return null;
    throw error;
  }
}

function sourceColumns(
  listed: SourceTable['listed'],
  tableColumns: TableColumn[] | undefined,
): SourceColumn[] {
  if (!tableColumns) return [];
  const types = new Map(tableColumns.map((column) => [column.name, column.pgType]));
  const known = (listed ?? []).filter((column) => types.has(column.name));
  if (known.length > 0) {
    return known.map((column) => ({
      name: column.name,
      label: column.label || column.name,
      pgType: types.get(column.name)!,
    }));
  }
  return tableColumns.map(({ name, pgType }) => ({ name, label: name, pgType }));
}
