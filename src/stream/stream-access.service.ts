import { Injectable, NotFoundException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccessGate, Caller } from '../access/access-gate.service';
import { isUuid } from '../common/uuid';
import { tableColumns, tableColumnsJson, TableColumn } from '../database/data-tables/data-table-catalog';
import { ROW_ID_COLUMN } from '../database/data-tables/data-table-names';
import { isReadableName } from '../database/data-tables/readable-name';
import { sqlOn } from '../database/sql';
import { ApiTokensService, TokenHolder } from '../users/tokens/api-tokens.service';
import { TOKEN_SCOPES } from '../users/tokens/token-scopes';
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
  readableName: string;
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
    private readonly apiTokens: ApiTokensService,
    private readonly gate: AccessGate,
  ) {}

  /**
   * The verified owner of a personal API key (which may do everything) or of a live named token
   * (which may do what its scopes say); a replaced key or revoked token matches no one at once.
   */
  async findKeyHolder(key: string): Promise<TokenHolder | null> {
    const user = await this.users.findByApiKey(key);
    if (user) return { user, scopes: TOKEN_SCOPES };
    return this.apiTokens.holderOf(key);
  }

  /**
   * A table the user may read, by its readable name (`sales_2024`) or, as older links have it, a
   * dataset id (`<assetId>`) or connector table (`instance-<instanceId>`, a bare instance id too,
   * `table-<tableId>`), with its columns; null when missing or not theirs.
   */
  async findReadableSource(caller: Caller, reference: string): Promise<StreamSource | null> {
    const instanceReference = INSTANCE_REFERENCE.exec(reference);
    if (instanceReference) return this.ownInstance(caller, instanceReference[1]);
    const tableReference = TABLE_REFERENCE.exec(reference);
    if (tableReference) return this.ownInstanceTable(caller, tableReference[1]);
    if (isReadableName(reference)) return this.namedSource(caller, reference);
    if (!isUuid(reference)) return null;
    const [dataset] = await this.heldDatasetSources(caller, reference);
    return dataset ?? this.ownInstance(caller, reference);
  }

  /** The table with this readable name, whichever kind it is, if the user may read it. */
  private async namedSource(caller: Caller, readableName: string): Promise<StreamSource | null> {
    const { rows } = await sqlOn(this.dataSource)<{ kind: StreamSource['kind']; id: string }>(
      `SELECT 'asset' AS kind, id FROM assets WHERE readable_name = $1
       UNION ALL SELECT 'instance', id FROM connector_instances WHERE readable_name = $1
       UNION ALL SELECT 'table', id FROM connector_instance_tables WHERE readable_name = $1`,
      [readableName],
    );
    const [named] = rows;
    if (!named) return null;
    if (named.kind === 'instance') return this.ownInstance(caller, named.id);
    if (named.kind === 'table') return this.ownInstanceTable(caller, named.id);
    const [dataset] = await this.heldDatasetSources(caller, named.id);
    return dataset ?? null;
  }

  /** Every dataset the user owns or holds a grant for, oldest first, with columns. */
  heldDatasets(caller: Caller): Promise<StreamSource[]> {
    return this.heldDatasetSources(caller);
  }

  /** Everything the user may read: held datasets, then the tables of their own connector instances. */
  async readableSources(caller: Caller): Promise<StreamSource[]> {
    const [datasets, instances, furtherTables] = await Promise.all([
      this.heldDatasetSources(caller),
      this.gate.ownedInstances(caller),
      this.gate.ownedInstanceTables(caller),
    ]);
    const connectorTables = await this.withColumns([
      ...instances.map((instance): SourceTable => ({
        kind: 'instance',
        id: instance.id,
        title: instance.title,
        readableName: instance.readableName,
        tableName: instance.outputTableName,
      })),
      ...furtherTables.map(({ instance, table }) => furtherSource(instance, table)),
    ]);
    return [...datasets, ...connectorTables];
  }

  /**
   * The datasets the user may read in full (the AccessGate's rule), all or the one with `assetId`,
   * with their columns, in one statement: every stream and OData call asks this first.
   */
  private async heldDatasetSources(caller: Caller, assetId?: string): Promise<StreamSource[]> {
    if (!caller) return [];
    const values: unknown[] = [caller.id];
    if (assetId !== undefined) values.push(assetId);
    const { rows } = await sqlOn(this.dataSource)<{
      id: string;
      title: string;
      readable_name: string;
      table_name: string;
      columns: SourceTable['listed'];
      catalog: TableColumn[] | null;
    }>(
      `SELECT asset.id, asset.title, asset.readable_name, asset.table_name, asset.columns, ${tableColumnsJson('asset.table_name')} AS catalog
         FROM assets asset
        WHERE ${this.gate.datasetCondition('held', 'asset', '$1')}${assetId !== undefined ? ' AND asset.id = $2' : ''}
        ORDER BY asset.created_at, asset.id`,
      values,
    );
    return rows.map((row) =>
      toSource(
        {
          kind: 'asset',
          id: row.id,
          title: row.title,
          readableName: row.readable_name,
          tableName: row.table_name,
          listed: row.columns,
        },
        row.catalog ?? undefined,
      ),
    );
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
      {
        kind: 'instance',
        id: instance.id,
        title: instance.title,
        readableName: instance.readableName,
        tableName: instance.outputTableName,
      },
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
    return tables.map((table) => toSource(table, catalog.get(table.tableName)));
  }
}

/** A table with its real columns (none when the table does not exist yet). */
function toSource(table: SourceTable, catalog: TableColumn[] | undefined): StreamSource {
  const { kind, id, title, readableName, tableName, listed } = table;
  return {
    kind,
    id,
    title,
    readableName,
    tableName,
    columns: sourceColumns(listed, catalog),
    hasRowId: kind === 'asset' && !!catalog?.some((column) => column.name === ROW_ID_COLUMN),
  };
}

/** A further operation's table, titled by its instance and operation. */
function furtherSource(instance: ConnectorInstance, table: ConnectorInstanceTable): SourceTable {
  return {
    kind: 'table',
    id: table.id,
    title: `${instance.title} ${table.operationId}`,
    readableName: table.readableName,
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
