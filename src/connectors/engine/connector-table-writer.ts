import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { DataSource } from 'typeorm';
import {
  castExpression,
  ColumnType,
  csvField,
  kindOf,
  pgTypeToColumnType,
  safeColumnName,
  widen,
} from './column-types';
import type { FetchedPage } from './run-plan';

const SYSTEM_COLUMNS = '"_run_id" uuid NOT NULL, "_fetched_at" timestamptz NOT NULL';

export interface WriteOptions {
  tableName: string;
  runId: string;
  override: boolean;
  pages: AsyncIterable<FetchedPage>;
}

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

export function qualified(tableName: string): string {
  if (!/^[a-z][a-z0-9_]{0,62}$/.test(tableName)) throw new Error(`Unsafe table name ${tableName}`);
  return `data."${tableName}"`;
}

export function stagingTableName(tableName: string, runId: string): string {
  return `${tableName}__s${runId.replace(/-/g, '').slice(0, 10)}`;
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

  async createEmptyTable(tableName: string): Promise<void> {
    await this.dataSource.query(`CREATE TABLE IF NOT EXISTS ${qualified(tableName)} (${SYSTEM_COLUMNS})`);
  }

  async dropTable(tableName: string): Promise<void> {
    await this.dataSource.query(`DROP TABLE IF EXISTS ${qualified(tableName)}`);
  }

  /** Drops what a run that died mid-way left behind. */
  async dropStaging(tableName: string, runId: string): Promise<void> {
    await this.dataSource.query(`DROP TABLE IF EXISTS ${qualified(stagingTableName(tableName, runId))}`);
  }

  /** Inside the final transaction: the instance must still exist (FOR SHARE waits for a removal). */
  private async requireInstance(client: PoolClient, tableName: string): Promise<void> {
    const { rows } = await client.query(
      `SELECT 1 FROM connector_instances WHERE output_table_name = $1 FOR SHARE`,
      [tableName],
    );
    if (rows.length === 0) throw new InstanceRemovedError();
  }

  /** Returns the number of rows written. */
  async write({ tableName, runId, override, pages }: WriteOptions): Promise<number> {
    const runner = this.dataSource.createQueryRunner();
    const client = (await runner.connect()) as PoolClient;
    const staging = stagingTableName(tableName, runId);
    const columns = new Map<string, ColumnState>();
    const usedNames = new Set<string>();
    let rowCount = 0;
    try {
      await client.query(`DROP TABLE IF EXISTS ${qualified(staging)}`);
      await client.query(`CREATE TABLE ${qualified(staging)} (${SYSTEM_COLUMNS})`);
      await this.copyPages(client, staging, runId, pages, columns, usedNames, (count) => (rowCount += count));
      if (override) await this.swapIn(client, staging, tableName);
      else await this.appendFrom(client, staging, tableName, columns);
      return rowCount;
    } finally {
      await client.query(`DROP TABLE IF EXISTS ${qualified(staging)}`).catch(() => undefined);
      await runner.release();
    }
  }

  private async copyPages(
    client: PoolClient,
    staging: string,
    runId: string,
    pages: AsyncIterable<FetchedPage>,
    columns: Map<string, ColumnState>,
    usedNames: Set<string>,
    onRows: (count: number) => void,
  ): Promise<void> {
    let copy: OpenCopy | undefined;
    try {
      for await (const page of pages) {
        const rows = hasKeys(page.iteration) ? withIteration(page.records, page.iteration) : page.records;
        const statements = this.columnChanges(rows, columns, usedNames);
        if (statements.length > 0 || !copy) {
          // One COPY stream spans pages; it is only restarted when the columns change.
          await copy?.finish();
          if (statements.length > 0)
            await client.query(`ALTER TABLE ${qualified(staging)} ${statements.join(', ')}`);
          copy = openCopy(client, staging, columns);
        }
        await copy.write(csvRows(runId, rows, copy.columns));
        onRows(rows.length);
      }
      await copy?.finish();
    } catch (error) {
      // An open COPY must be failed explicitly, or the connection stays in COPY mode.
      await copy?.abort();
      throw error;
    }
  }

  /** ALTER TABLE clauses adding columns for new keys and widening columns whose values no longer fit. */
  private columnChanges(
    rows: Record<string, unknown>[],
    columns: Map<string, ColumnState>,
    usedNames: Set<string>,
  ): string[] {
    const wanted = new Map<string, ColumnType | null>();
    for (const row of rows) {
      for (const key in row) {
        const kind = kindOf(row[key]);
        const current = wanted.get(key);
        if (current === undefined) wanted.set(key, kind);
        else if (kind !== current && kind !== null) wanted.set(key, widen(current, kind));
      }
    }
    const statements: string[] = [];
    for (const [key, kind] of wanted) {
      let state = columns.get(key);
      if (!state) {
        const base = key.startsWith(ITERATION_PREFIX)
          ? `_${safeColumnName(key.slice(ITERATION_PREFIX.length))}`
          : safeColumnName(key);
        state = { name: uniqueName(base, usedNames), type: null };
        columns.set(key, state);
      }
      const target = widen(state.type, kind);
      if (target === state.type || target === null) continue;
      statements.push(
        state.type === null
          ? `ADD COLUMN "${state.name}" ${target}`
          : `ALTER COLUMN "${state.name}" TYPE ${target} USING ${castExpression(`"${state.name}"`, state.type, target)}`,
      );
      state.type = target;
    }
    return statements;
  }

  private async swapIn(client: PoolClient, staging: string, tableName: string): Promise<void> {
    await client.query('BEGIN');
    try {
      await this.requireInstance(client, tableName);
      await client.query(`DROP TABLE IF EXISTS ${qualified(tableName)}`);
      await client.query(`ALTER TABLE ${qualified(staging)} RENAME TO "${tableName}"`);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
  }

  private async appendFrom(
    client: PoolClient,
    staging: string,
    tableName: string,
    columns: Map<string, ColumnState>,
  ): Promise<void> {
    await client.query('BEGIN');
    try {
      await this.requireInstance(client, tableName);
      await client.query(`CREATE TABLE IF NOT EXISTS ${qualified(tableName)} (${SYSTEM_COLUMNS})`);
      await client.query(`LOCK TABLE ${qualified(tableName)} IN SHARE ROW EXCLUSIVE MODE`);
      const existing = await this.existingColumns(client, tableName);
      const statements: string[] = [];
      const selects: string[] = ['"_run_id"', '"_fetched_at"'];
      const targets: string[] = ['"_run_id"', '"_fetched_at"'];
      for (const state of columns.values()) {
        if (!state.type) continue;
        const current = existing.get(state.name);
        const merged = widen(current ?? null, state.type)!;
        if (!current) statements.push(`ADD COLUMN "${state.name}" ${merged}`);
        else if (merged !== current) {
          statements.push(
            `ALTER COLUMN "${state.name}" TYPE ${merged} USING ${castExpression(`"${state.name}"`, current, merged)}`,
          );
        }
        targets.push(`"${state.name}"`);
        selects.push(castExpression(`"${state.name}"`, state.type, merged));
      }
      if (statements.length > 0)
        await client.query(`ALTER TABLE ${qualified(tableName)} ${statements.join(', ')}`);
      await client.query(
        `INSERT INTO ${qualified(tableName)} (${targets.join(', ')}) SELECT ${selects.join(', ')} FROM ${qualified(staging)}`,
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
  }

  private async existingColumns(client: PoolClient, tableName: string): Promise<Map<string, ColumnType>> {
    const { rows } = await client.query<{ column_name: string; data_type: string }>(
      `SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'data' AND table_name = $1`,
      [tableName],
    );
    return new Map(rows.map((row) => [row.column_name, pgTypeToColumnType(row.data_type)]));
  }
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
  const columnList = ['"_run_id"', '"_fetched_at"', ...typed.map((column) => `"${column.name}"`)].join(', ');
  const stream = client.query(
    copyFrom(`COPY ${qualified(staging)} (${columnList}) FROM STDIN WITH (FORMAT csv)`),
  );
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

function csvRows(runId: string, rows: Record<string, unknown>[], columns: CopyColumn[]): string {
  const prefix = `${runId},${new Date().toISOString()}`;
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

function uniqueName(base: string, used: Set<string>): string {
  let name = base;
  for (let suffix = 2; used.has(name) || name === '_run_id' || name === '_fetched_at'; suffix++)
    name = `${base}_${suffix}`;
  used.add(name);
  return name;
}
