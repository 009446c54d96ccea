import { BadRequestException } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { createConnectorTable, dropTable } from '../database/data-tables/data-table-ddl';
import { connectorTableName } from '../database/data-tables/data-table-names';
import { type Sql, sqlOn } from '../database/sql';
import type { IncrementalState } from './engine/run-plan';
import type { ConnectorSpec } from './dsl/connector-spec.types';
import { dataOperation } from './dsl/spec-to-connector';
import type { Connector } from './entities/connector.entity';
import type { ConnectorInstance } from './entities/connector-instance.entity';
import { ConnectorInstanceTable } from './entities/connector-instance-table.entity';

/** One table an instance fills: the operation writing it and how streams and OData name it. */
export interface InstanceTarget {
  /** null: the spec's first operation (or a connector without a spec). */
  operationId: string | null;
  tableName: string;
  /** The table's readable name (readable-name.ts), which stream links and OData take too. */
  readableName: string;
  /** What the stream links take: `instance-<instanceId>` for the instance table, `table-<id>` for a further one. */
  streamReference: string;
}

/** The spec's operation ids, in the order the spec lists them. */
export function specOperationIds(connector: Connector): string[] {
  const spec = connector.spec as ConnectorSpec | null;
  return (spec?.operations ?? []).map((operation) => operation.id);
}

/**
 * The checked operation list of `operation_ids`: each must be an operation of the connector's
 * spec. The first writes the instance's own table; each further one gets a table of its own.
 */
export function checkOperationIds(connector: Connector, operationIds: string[]): string[] {
  const known = new Set(specOperationIds(connector));
  const problems = operationIds
    .filter((id) => !known.has(id))
    .map((id) => `operation_ids: '${id}' is not an operation of this connector`);
  if (problems.length > 0) throw new BadRequestException({ message: problems });
  return operationIds;
}

/** The operation writing the instance's own table: the chosen one, else the spec's first. */
export function primaryOperationId(connector: Connector, instance: ConnectorInstance): string | null {
  return instance.operationId ?? dataOperation(connector.spec as ConnectorSpec | null)?.id ?? null;
}

/** A table name for a further operation: readable from the connector and the operation. */
function furtherTableName(connector: Connector, operationId: string): string {
  return connectorTableName(`${connector.title.slice(0, 12)} ${operationId}`);
}

/**
 * Makes the instance's further operations exactly `wanted` (in one transaction with the instance
 * row): a table for each new one, the table of each one no longer wanted dropped with its row.
 */
export async function syncFurtherTables(
  manager: EntityManager,
  connector: Connector,
  instanceId: string,
  wanted: string[],
): Promise<void> {
  const repository = manager.getRepository(ConnectorInstanceTable);
  const existing = await repository.findBy({ instanceId });
  const gone = existing.filter((table) => !wanted.includes(table.operationId));
  if (gone.length > 0) {
    await repository.delete({ id: In(gone.map((table) => table.id)) });
    for (const table of gone) await dropTable(sqlOn(manager), table.outputTableName);
  }
  const present = new Set(existing.map((table) => table.operationId));
  for (const operationId of wanted.filter((id) => !present.has(id))) {
    const tableName = furtherTableName(connector, operationId);
    await repository.insert({ instanceId, operationId, outputTableName: tableName });
    await createConnectorTable(sqlOn(manager), tableName);
  }
}

/** Further tables of these instances, grouped by instance. */
export async function furtherTablesOf(
  manager: EntityManager,
  instanceIds: string[],
): Promise<Map<string, ConnectorInstanceTable[]>> {
  const grouped = new Map<string, ConnectorInstanceTable[]>();
  if (instanceIds.length === 0) return grouped;
  const rows = await manager
    .getRepository(ConnectorInstanceTable)
    .find({ where: { instanceId: In(instanceIds) }, order: { operationId: 'ASC' } });
  for (const row of rows) grouped.set(row.instanceId, [...(grouped.get(row.instanceId) ?? []), row]);
  return grouped;
}

/** Every table an instance fills, its own first, in the order its operations run. */
export function instanceTargets(
  connector: Connector,
  instance: ConnectorInstance,
  further: ConnectorInstanceTable[],
): InstanceTarget[] {
  // Further operations run in the order the spec lists them.
  const order = specOperationIds(connector);
  return [
    {
      operationId: primaryOperationId(connector, instance),
      tableName: instance.outputTableName,
      readableName: instance.readableName,
      streamReference: `instance-${instance.id}`,
    },
    ...[...further]
      .sort((a, b) => order.indexOf(a.operationId) - order.indexOf(b.operationId))
      .map((table) => ({
        operationId: table.operationId,
        tableName: table.outputTableName,
        readableName: table.readableName,
        streamReference: `table-${table.id}`,
      })),
  ];
}

/**
 * An operation's saved incremental state. The instance's own (first) operation keeps the top-level
 * `cursor`, as instances had before they ran several operations; each further one keeps its own
 * under `streams.<operation id>`.
 */
export function operationStateOf(
  instance: Pick<ConnectorInstance, 'incrementalState'>,
  furtherOperationId: string | null,
): IncrementalState | null {
  const state = instance.incrementalState;
  if (!state) return null;
  if (furtherOperationId === null) {
    const { streams: _streams, ...own } = state;
    return Object.keys(own).length === 0 ? null : own;
  }
  return state.streams?.[furtherOperationId] ?? null;
}

/** Saves one operation's state beside the others', inside the transaction committing its rows. */
export async function saveOperationState(
  sql: Sql,
  instanceId: string,
  furtherOperationId: string | null,
  state: IncrementalState,
): Promise<void> {
  if (furtherOperationId === null) {
    await sql(
      `UPDATE connector_instances SET incremental_state = coalesce(incremental_state, '{}'::jsonb) || $2::jsonb
       WHERE id = $1`,
      [instanceId, JSON.stringify(state)],
    );
    return;
  }
  await sql(
    `UPDATE connector_instances
        SET incremental_state = jsonb_set(
              coalesce(incremental_state, '{}'::jsonb), '{streams}',
              coalesce(incremental_state -> 'streams', '{}'::jsonb) || jsonb_build_object($2::text, $3::jsonb))
      WHERE id = $1`,
    [instanceId, furtherOperationId, JSON.stringify(state)],
  );
}
