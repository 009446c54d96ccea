import type { PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { columnsOf } from '../../database/data-tables/data-table-catalog';
import {
  createColumnIndex,
  createConnectorTable,
  createStagingTable,
  dropRunDefaults,
  dropTable,
  lockForAppend,
  swapTable,
} from '../../database/data-tables/data-table-ddl';
import {
  dataTable,
  FETCHED_AT_COLUMN,
  quoteIdentifier,
  RUN_ID_COLUMN,
  stagingTableName,
  WRITTEN_TEXT_SUFFIX,
  writtenTextColumn,
} from '../../database/data-tables/data-table-names';
import { LONG_WORK_LIMITS_MS, pgPool, Sql, sqlOn, transactionOn } from '../../database/sql';
import { applyColumnChanges, ColumnChange } from './column-changes';
import { castExpression, ColumnType, pgTypeToColumnType, widen } from './column-types';
import { ColumnState, RunColumns } from './record-columns';
import type { FetchedPage } from './run-plan';
import { copyPagesInto } from './staging-copy';

/** Copies, dedupes and swaps outlast any ordinary statement: a limit of their own, per transaction. */
const LONG_WORK = { statementLimitMs: LONG_WORK_LIMITS_MS.connectorWrite };

export interface WriteOptions {
  tableName: string;
  runId: string;
  override: boolean;
  pages: AsyncIterable<FetchedPage>;
  /** Record fields identifying a row: rows with the same values replace the stored ones (upsert). */
  primaryKey?: string[];
  /** Runs inside the transaction that makes the rows visible (an incremental state advancing with them). */
  onCommit?: (sql: Sql) => Promise<void>;
  /** Asked once the pages are read: true (the upstream said 304) leaves the table as it is. */
  unchanged?: () => boolean;
}

/** The instance was removed while its run was writing; its rows must not resurrect the table. */
export class InstanceRemovedError extends Error {
  constructor() {
    super('The connector instance was removed during the run');
    this.name = 'InstanceRemovedError';
  }
}

/**
 * Writes fetched pages into `data.<table>`: top-level keys become columns (added as they
 * appear, widened when values disagree; nested values as jsonb) plus `_run_id` and
 * `_fetched_at`. Pages are COPYed into a staging table as they arrive; at the end one short
 * transaction either swaps the staging table in (override: readers see the old rows until
 * then) or appends its rows. A failed run drops the staging table and leaves the old rows.
 */
export class ConnectorTableWriter {
  constructor(private readonly dataSource: DataSource) {}

  /** Drops what a run that died mid-way left behind. */
  async dropStaging(tableName: string, runId: string): Promise<void> {
    await dropTable(sqlOn(this.dataSource), stagingTableName(tableName, runId));
  }

  /**
   * Inside the final transaction: the instance's table, or the further operation's table, must
   * still be listed (FOR SHARE waits for a removal).
   */
  private async requireInstance(sql: Sql, tableName: string): Promise<void> {
    const { rows } = await sql(`SELECT 1 FROM connector_instances WHERE output_table_name = $1 FOR SHARE`, [
      tableName,
    ]);
    if (rows.length > 0) return;
    const further = await sql(
      `SELECT 1 FROM connector_instance_tables WHERE output_table_name = $1 FOR SHARE`,
      [tableName],
    );
    if (further.rows.length === 0) throw new InstanceRemovedError();
  }

  /** Returns the number of rows written. */
  async write({
    tableName,
    runId,
    override,
    pages,
    primaryKey,
    onCommit,
    unchanged,
  }: WriteOptions): Promise<number> {
    const client = await pgPool(this.dataSource).connect();
    const sql = sqlOn(client);
    const staging = stagingTableName(tableName, runId);
    try {
      // Columns the table already has keep their names (tables made before camelCase was split).
      const columns = new RunColumns(new Set((await columnsOf(sql, tableName)).map((column) => column.name)));
      await dropTable(sql, staging);
      // `_fetched_at` is the run's fetch start on every row: rows sort by run, then in the order fetched.
      await createStagingTable(sql, staging, { runId, fetchedAt: new Date().toISOString() });
      // One COPY spans every page fetched from the upstream API: longer than any ordinary statement.
      const rowCount = await transactionOn(
        client,
        () => copyPagesInto(client, staging, pages, columns),
        LONG_WORK,
      );
      // Nothing changed upstream: an override must not swap in an empty table.
      if (unchanged?.()) return 0;
      const keyColumns = primaryKey && rowCount > 0 ? columns.keyColumns(primaryKey) : undefined;
      if (override) await this.swapIn(client, staging, tableName, keyColumns, onCommit);
      else await this.appendFrom(client, staging, tableName, columns.byKey, keyColumns, onCommit);
      return rowCount;
    } finally {
      await dropTable(sql, staging).catch(() => undefined);
      client.release();
    }
  }

  private async swapIn(
    client: PoolClient,
    staging: string,
    tableName: string,
    keyColumns: string[] | undefined,
    onCommit: WriteOptions['onCommit'],
  ): Promise<void> {
    const sql = sqlOn(client);
    // A key read twice in one run keeps its last version.
    if (keyColumns) {
      const same = keyColumns
        .map((name) => `a.${quoteIdentifier(name)} = b.${quoteIdentifier(name)}`)
        .join(' AND ');
      const dedupe = `DELETE FROM ${dataTable(staging)} a USING ${dataTable(staging)} b WHERE ${same} AND a.ctid < b.ctid`;
      await transactionOn(client, () => sql(dedupe), LONG_WORK);
    }
    await transactionOn(
      client,
      async () => {
        await this.requireInstance(sql, tableName);
        await dropRunDefaults(sql, staging);
        await swapTable(sql, staging, tableName);
        await onCommit?.(sql);
      },
      LONG_WORK,
    );
  }

  private async appendFrom(
    client: PoolClient,
    staging: string,
    tableName: string,
    columns: Map<string, ColumnState>,
    keyColumns: string[] | undefined,
    onCommit: WriteOptions['onCommit'],
  ): Promise<void> {
    const sql = sqlOn(client);
    await transactionOn(
      client,
      async () => {
        await this.requireInstance(sql, tableName);
        await createConnectorTable(sql, tableName, { ifNotExists: true });
        await lockForAppend(sql, tableName);
        const stored = await columnsOf(sql, tableName, true);
        const storedNames = new Set(stored.map((column) => column.name));
        const existing = new Map(
          stored
            .filter((column) => !column.name.endsWith(WRITTEN_TEXT_SUFFIX))
            .map((column) => [column.name, pgTypeToColumnType(column.pgType)]),
        );
        const changes: ColumnChange[] = [];
        const systemColumns = [RUN_ID_COLUMN, FETCHED_AT_COLUMN].map(quoteIdentifier);
        const selects: string[] = [...systemColumns];
        const targets: string[] = [...systemColumns];
        for (const state of columns.values()) {
          if (!state.type) continue;
          const current = existing.get(state.name) ?? null;
          const merged = widen(current, state.type)!;
          // A table from before the text kept beside timestamps gets it (only then: any ALTER locks
          // readers out until the append commits).
          const lacksWrittenText =
            merged === 'timestamptz' && !storedNames.has(writtenTextColumn(state.name));
          if (merged !== current || lacksWrittenText)
            changes.push({ name: state.name, from: current, to: merged });
          targets.push(quoteIdentifier(state.name));
          selects.push(stagedValue(state.name, state.type, merged));
          if (merged === 'timestamptz') {
            targets.push(quoteIdentifier(writtenTextColumn(state.name)));
            selects.push(stagedWrittenText(state.name, state.type));
          }
        }
        await applyColumnChanges(sql, tableName, changes);
        if (!keyColumns) {
          await sql(
            `INSERT INTO ${dataTable(tableName)} (${targets.join(', ')}) SELECT ${selects.join(', ')} FROM ${dataTable(staging)}`,
          );
        } else {
          await this.upsert(sql, staging, tableName, columns, existing, keyColumns, targets, selects);
        }
        await onCommit?.(sql);
      },
      LONG_WORK,
    );
  }

  /**
   * Rows whose key is already stored replace the stored ones: the stored rows with a key of this
   * run go, then the run's rows come in (a key read twice keeps its last version), in fetch order.
   */
  private async upsert(
    sql: Sql,
    staging: string,
    tableName: string,
    columns: Map<string, ColumnState>,
    existing: Map<string, ColumnType>,
    keyColumns: string[],
    targets: string[],
    selects: string[],
  ): Promise<void> {
    const byName = new Map([...columns.values()].map((state) => [state.name, state]));
    if (keyColumns.length === 1) await createColumnIndex(sql, tableName, keyColumns[0]);
    const same = keyColumns
      .map((name) => {
        const state = byName.get(name)!;
        const target = widen(existing.get(name) ?? null, state.type)!;
        return `t.${quoteIdentifier(name)} = ${stagedValue(name, state.type!, target, 's.')}`;
      })
      .join(' AND ');
    await sql(`DELETE FROM ${dataTable(tableName)} t USING ${dataTable(staging)} s WHERE ${same}`);
    const partition = keyColumns.map(quoteIdentifier).join(', ');
    await sql(
      `INSERT INTO ${dataTable(tableName)} (${targets.join(', ')})
       SELECT ${selects.join(', ')} FROM (
         SELECT *, row_number() OVER (PARTITION BY ${partition} ORDER BY ctid DESC) AS _keep, ctid AS _position
         FROM ${dataTable(staging)}) AS ${quoteIdentifier('staged')}
       WHERE _keep = 1 ORDER BY _position`,
    );
  }
}

/** A staged column's value in the target's type; as text, a timestamp is the text fetched. */
function stagedValue(name: string, from: ColumnType, to: ColumnType, alias = ''): string {
  const writtenText =
    from === 'timestamptz' ? `${alias}${quoteIdentifier(writtenTextColumn(name))}` : undefined;
  return castExpression(`${alias}${quoteIdentifier(name)}`, from, to, writtenText);
}

/** The text fetched of a staged value going into a timestamptz column: a day's is the day itself. */
function stagedWrittenText(name: string, from: ColumnType): string {
  return from === 'timestamptz' ? quoteIdentifier(writtenTextColumn(name)) : `${quoteIdentifier(name)}::text`;
}
