import { Client, ClientBase, Pool, QueryResultRow } from 'pg';
import { DataSource, EntityManager } from 'typeorm';

/**
 * The database helpers every module uses: the pg pool behind TypeORM, one way to run a raw
 * statement on any connection, transactions on a held connection, and the error codes we act on.
 * Which data-access style fits which work is written down in docs/architecture.md.
 */

/** The answer of one raw statement: its rows and how many rows it touched. */
export interface SqlResult<Row> {
  rows: Row[];
  rowCount: number;
}

/** Runs one raw statement; built by sqlOn() for a pg connection or pool, the data source or a transaction's manager. */
export type Sql = <Row extends QueryResultRow = QueryResultRow>(
  text: string,
  values?: unknown[],
) => Promise<SqlResult<Row>>;

/** The pg pool behind TypeORM's data source, for work that needs pg itself (COPY, held connections). */
export function pgPool(dataSource: DataSource): Pool {
  return (dataSource.driver as unknown as { master: Pool }).master;
}

/**
 * A connection of its own, outside the pool (not yet connected), for work that must never hold a
 * pooled one: a long upload, the connector runner's liveness lock.
 */
export function dedicatedClient(dataSource: DataSource, applicationName: string): Client {
  const { url } = dataSource.options as { url?: string };
  return new Client({ connectionString: url, application_name: applicationName });
}

/**
 * One calling convention for raw SQL whatever runs it. TypeORM answers a bare UPDATE or DELETE as
 * [rows, count]; inside a transaction its structured result is read instead, so every caller sees
 * rows. A manager must belong to a transaction (`dataSource.transaction(manager => ...)`).
 */
export function sqlOn(target: ClientBase | Pool | DataSource | EntityManager): Sql {
  if (target instanceof EntityManager) {
    const runner = target.queryRunner;
    if (!runner) throw new Error('sqlOn needs the manager of a transaction');
    return async (text, values) => {
      const result = await runner.query(text, values, true);
      return { rows: result.records, rowCount: result.affected ?? result.records.length };
    };
  }
  const pg = target instanceof DataSource ? pgPool(target) : target;
  return async <Row extends QueryResultRow>(text: string, values?: unknown[]) => {
    const result = await pg.query<Row>(text, values);
    return { rows: result.rows, rowCount: result.rowCount ?? 0 };
  };
}

/**
 * Runs `work` in one transaction on a connection the caller already holds for longer work (the
 * connector writer's staging and swap): rolls back on any error. App rows use
 * `dataSource.transaction()` instead.
 */
export async function transactionOn<T>(client: ClientBase, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** SQLSTATE of a failed statement, through TypeORM's QueryFailedError wrapper when there is one. */
function sqlState(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const { code, driverError } = error as { code?: unknown; driverError?: { code?: unknown } };
  if (typeof driverError?.code === 'string') return driverError.code;
  return typeof code === 'string' ? code : undefined;
}

/** A unique index refused the row (23505): someone else holds that e-mail, slug or running run. */
export function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === '23505';
}

/** A value did not fit its column's type (SQLSTATE class 22, data exception). */
export function isDataException(error: unknown): boolean {
  return sqlState(error)?.startsWith('22') ?? false;
}

/** Connection-level failures (server down, restarting, refusing) as opposed to a bad query. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
]);

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message, driverError } = error as { code?: string; message?: string; driverError?: unknown };
  if (driverError && driverError !== error && isDatabaseUnavailable(driverError)) return true;
  if (code && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
    message ?? '',
  );
}
