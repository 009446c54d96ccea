import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { DataSource } from 'typeorm';
import { columnsOf } from '../../database/data-tables/data-table-catalog';
import {
  alterTable,
  createColumnIndex,
  copyFromStdin,
  createConnectorTable,
  dropTable,
  lockForAppend,
  swapTable,
  TableChange,
} from '../../database/data-tables/data-table-ddl';
import {
  dataTable,
  FETCHED_AT_COLUMN,
  quoteIdentifier,
  RUN_ID_COLUMN,
  stagingTableName,
} from '../../database/data-tables/data-table-names';
import {
  LONG_WORK_LIMITS_MS,
  liftStatementLimit,
  pgPool,
  Sql,
  sqlOn,
  transactionOn,
} from '../../database/sql';
import {
  castExpression,
  ColumnType,
  csvField,
  kindOf,
  legacyColumnName,
  pgTypeToColumnType,
  safeColumnName,
  widen,
} from './column-types';
import type { FetchedPage } from './run-plan';

export interface WriteOptions {
  tableName: string;
  runId: string;
  override: boolean;
  pages: AsyncIterable<FetchedPage>;
  /** Record fields identifying a row: rows with the same values replace the stored ones (upsert). */
  primaryKey?: string[];
  /** Runs inside the transaction that makes the rows visible (an incremental state advancing with them). */
  onCommit?: (sql: Sql) => Promise<void>;
}

/** The records of a run lack a primary_key field the spec declares. */
export class MissingKeyError extends Error {}

interface ColumnState {
  name: string;
  type: ColumnType | null;
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
  async write({ tableName, runId, override, pages, primaryKey, onCommit }: WriteOptions): Promise<number> {
    const client = await pgPool(this.dataSource).connect();
    const sql = sqlOn(client);
    const staging = stagingTableName(tableName, runId);
    const columns = new Map<string, ColumnState>();
    const usedNames = new Set<string>();
    let rowCount = 0;
    let restoreLimit: (() => Promise<boolean>) | undefined;
    try {
      // One COPY spans every page fetched from the upstream API: longer than any ordinary statement.
      restoreLimit = await liftStatementLimit(client, LONG_WORK_LIMITS_MS.connectorWrite);
      // Columns the table already has keep their names (tables made before camelCase was split).
      const existing = new Set((await columnsOf(sql, tableName)).map((column) => column.name));
      await dropTable(sql, staging);
      await createConnectorTable(sql, staging);
      const fetchedAt = new Date().toISOString();
      await this.copyPages(
        client,
        staging,
        runId,
        fetchedAt,
        pages,
        columns,
        usedNames,
        existing,
        (count) => (rowCount += count),
      );
      const keyColumns = primaryKey && rowCount > 0 ? keyColumnsOf(primaryKey, columns) : undefined;
      if (override) await this.swapIn(client, staging, tableName, keyColumns, onCommit);
      else await this.appendFrom(client, staging, tableName, columns, keyColumns, onCommit);
      return rowCount;
    } finally {
      await dropTable(sql, staging).catch(() => undefined);
      const reusable = restoreLimit ? await restoreLimit() : true;
      client.release(reusable ? undefined : new Error('Connection left with a lifted statement limit'));
    }
  }

  private async copyPages(
    client: PoolClient,
    staging: string,
    runId: string,
    fetchedAt: string,
    pages: AsyncIterable<FetchedPage>,
    columns: Map<string, ColumnState>,
    usedNames: Set<string>,
    existing: Set<string>,
    onRows: (count: number) => void,
  ): Promise<void> {
    let copy: OpenCopy | undefined;
    try {
      for await (const page of pages) {
        const rows = hasKeys(page.iteration) ? withIteration(page.records, page.iteration) : page.records;
        const statements = this.columnChanges(rows, columns, usedNames, existing);
        if (statements.length > 0 || !copy) {
          // One COPY stream spans pages; it is only restarted when the columns change.
          await copy?.finish();
          await alterTable(sqlOn(client), staging, statements);
          copy = openCopy(client, staging, columns);
        }
        await copy.write(csvRows(runId, fetchedAt, rows, copy.columns));
        onRows(rows.length);
      }
      await copy?.finish();
    } catch (error) {
      // An open COPY must be failed explicitly, or the connection stays in COPY mode.
      await copy?.abort();
      throw error;
    }
  }

  /** Changes adding columns for new keys and widening columns whose values no longer fit. */
  private columnChanges(
    rows: Record<string, unknown>[],
    columns: Map<string, ColumnState>,
    usedNames: Set<string>,
    existing: Set<string>,
  ): TableChange[] {
    const wanted = new Map<string, ColumnType | null>();
    for (const row of rows) {
      for (const key in row) {
        const kind = kindOf(row[key]);
        const current = wanted.get(key);
        if (current === undefined) wanted.set(key, kind);
        else if (kind !== current && kind !== null) wanted.set(key, widen(current, kind));
      }
    }
    const statements: TableChange[] = [];
    for (const [key, kind] of wanted) {
      let state = columns.get(key);
      if (!state) {
        const base = key.startsWith(ITERATION_PREFIX)
          ? `_${safeColumnName(key.slice(ITERATION_PREFIX.length))}`
          : columnNameFor(key, existing);
        state = { name: uniqueName(base, usedNames), type: null };
        columns.set(key, state);
      }
      const target = widen(state.type, kind);
      if (target === state.type || target === null) continue;
      statements.push(columnChange(state.name, state.type, target));
      state.type = target;
    }
    return statements;
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
      await sql(
        `DELETE FROM ${dataTable(staging)} a USING ${dataTable(staging)} b WHERE ${same} AND a.ctid < b.ctid`,
      );
    }
    await transactionOn(client, async () => {
      await this.requireInstance(sql, tableName);
      await swapTable(sql, staging, tableName);
      await onCommit?.(sql);
    });
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
    await transactionOn(client, async () => {
      await this.requireInstance(sql, tableName);
      await createConnectorTable(sql, tableName, { ifNotExists: true });
      await lockForAppend(sql, tableName);
      const existing = new Map(
        (await columnsOf(sql, tableName)).map((column) => [column.name, pgTypeToColumnType(column.pgType)]),
      );
      const changes: TableChange[] = [];
      const systemColumns = [RUN_ID_COLUMN, FETCHED_AT_COLUMN].map(quoteIdentifier);
      const selects: string[] = [...systemColumns];
      const targets: string[] = [...systemColumns];
      for (const state of columns.values()) {
        if (!state.type) continue;
        const current = existing.get(state.name) ?? null;
        const merged = widen(current, state.type)!;
        if (merged !== current) changes.push(columnChange(state.name, current, merged));
        targets.push(quoteIdentifier(state.name));
        selects.push(castExpression(quoteIdentifier(state.name), state.type, merged));
      }
      await alterTable(sql, tableName, changes);
      if (!keyColumns) {
        await sql(
          `INSERT INTO ${dataTable(tableName)} (${targets.join(', ')}) SELECT ${selects.join(', ')} FROM ${dataTable(staging)}`,
        );
      } else {
        await this.upsert(sql, staging, tableName, columns, existing, keyColumns, targets, selects);
      }
      await onCommit?.(sql);
    });
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
        return `t.${quoteIdentifier(name)} = ${castExpression(`s.${quoteIdentifier(name)}`, state.type!, target)}`;
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

/** Adds a column of type `to`, or widens one of type `from` to it. */
function columnChange(name: string, from: ColumnType | null, to: ColumnType): TableChange {
  if (from === null) return { addColumn: { name, sqlType: to } };
  return { retypeColumn: { name, sqlType: to }, using: castExpression(quoteIdentifier(name), from, to) };
}

const ITERATION_PREFIX = '\u0000iteration:';

interface CopyColumn {
  key: string;
  type: ColumnType;
}

interface OpenCopy {
  columns: CopyColumn[];
  write(chunk: string): Promise<void>;
  finish(): Promise<void>;
  abort(): Promise<void>;
}

/** A COPY … FROM STDIN into the staging table for the typed columns known now. */
function openCopy(client: PoolClient, staging: string, columns: Map<string, ColumnState>): OpenCopy {
  const typed = [...columns.entries()]
    .filter(([, state]) => state.type !== null)
    .map(([key, state]) => ({ key, name: state.name, type: state.type as ColumnType }));
  const columnNames = [RUN_ID_COLUMN, FETCHED_AT_COLUMN, ...typed.map((column) => column.name)];
  const stream = client.query(copyFrom(copyFromStdin(staging, columnNames, 'FORMAT csv')));
  let failure: Error | undefined;
  stream.on('error', (error: Error) => (failure = error));
  return {
    columns: typed,
    write: async (chunk) => {
      if (failure) throw failure;
      if (!stream.write(chunk)) await once(stream, 'drain');
    },
    finish: async () => {
      if (failure) throw failure;
      stream.end();
      await finished(stream);
    },
    abort: async () => {
      if (stream.destroyed) return;
      stream.destroy(new Error('Run aborted'));
      await finished(stream).catch(() => undefined);
    },
  };
}

/** `_fetched_at` is the run's fetch start on every row: rows sort by run, then in the order fetched. */
function csvRows(
  runId: string,
  fetchedAt: string,
  rows: Record<string, unknown>[],
  columns: CopyColumn[],
): string {
  const prefix = `${runId},${fetchedAt}`;
  let csv = '';
  for (const row of rows) {
    let line = prefix;
    for (const column of columns) line += ',' + csvField(row[column.key], column.type);
    csv += line + '\n';
  }
  return csv;
}

function hasKeys(value: Record<string, unknown>): boolean {
  for (const _key in value) return true;
  return false;
}

/**
 * The page's records with its iteration values added as pseudo-keys that become `_<key>` columns,
 * apart from the records' own keys. The pseudo-keys are the same for the whole page.
 */
function withIteration(
  records: Record<string, unknown>[],
  iteration: Record<string, unknown>,
): Record<string, unknown>[] {
  const iterationColumns = Object.fromEntries(
    Object.entries(iteration).map(([key, value]) => [`${ITERATION_PREFIX}${key}`, value]),
  );
  return records.map((record) => ({ ...record, ...iterationColumns }));
}

/** A record field's column: its name, or the older name the existing table already has for it. */
function columnNameFor(key: string, existing: Set<string>): string {
  const name = safeColumnName(key);
  if (existing.has(name)) return name;
  const legacy = legacyColumnName(key);
  return existing.has(legacy) ? legacy : name;
}

/** The columns of the declared primary_key fields (after shaping). */
function keyColumnsOf(primaryKey: string[], columns: Map<string, ColumnState>): string[] {
  return primaryKey.map((key) => {
    const state = columns.get(key);
    if (!state?.type) throw new MissingKeyError(`primary_key field '${key}' is missing from every record`);
    return state.name;
  });
}

function uniqueName(base: string, used: Set<string>): string {
  let name = base;
  for (let suffix = 2; used.has(name) || name === RUN_ID_COLUMN || name === FETCHED_AT_COLUMN; suffix++)
    name = `${base}_${suffix}`;
  used.add(name);
  return name;
}
