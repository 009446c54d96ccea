import { Injectable } from '@nestjs/common';
import { Client, PoolConfig } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { CopyToStreamQuery } from 'pg-copy-streams';
import { NO_ANSWER_GRACE_MS } from '../../database/data-source-options';
import { cancelServerBackend, SERVER_BACKEND_SQL, serverBackendOf } from '../../database/server-backend';
import { settleAnswerTimer } from '../../stream/copy-out';
import { binaryExpression, ExportColumn } from '../../formats/binary-columns';
import { CopyTextRows, Row } from './copy-text-rows';
import { QueryDatabase } from './query-database';
import { claimQuerySlot, QuerySlots } from './query-slots';
import { csvRow, uniqueNames } from './result-encoding';
import { memoryNodes, ROLE_WORK_MEM_KB, sharedWorkMemKb } from './memory-budget';
import { sessionEnded, TableTakenUnderQuery } from './user-sql-errors';

/** Values exactly as PostgreSQL writes them: the writers decide how each type goes out. */
const RAW_TEXT = { getTypeParser: () => (value: string) => value };

/**
 * The statement as a subquery, on lines of its own so a comment ending it ends there. The limit
 * lets PostgreSQL stop at the last row wanted; a subquery's order holds under it.
 */
const SELECT_BEFORE = 'SELECT * FROM (\n';
const COPY_BEFORE = `COPY (${SELECT_BEFORE}`;

function limited(sql: string, rowLimit: number): string {
  return `${SELECT_BEFORE}${sql}\n) AS statement LIMIT ${Math.trunc(rowLimit)}`;
}

export interface QueryColumn {
  name: string;
  type: string;
}

/**
 * The result's columns as a typed file writes them: renamed by position (a result may repeat a
 * name, or have none) and labelled with the answer's unique names. A numeric goes out as its exact
 * text: a DECIMAL needs the digits of every value before the first is written, and the rows are
 * not scanned first (even a declared numeric(p, s) may hold NaN).
 */
function exportColumns(columns: QueryColumn[]): ExportColumn[] {
  const labels = uniqueNames(columns);
  return columns.map((column, index) => ({
    name: `c${index + 1}`,
    label: labels[index],
    pgType: column.type,
  }));
}

/** COPY of a statement's rows in binary, each column as the typed writers read it. */
function binaryCopyBefore(columns: ExportColumn[]): string {
  return `COPY (SELECT ${columns.map(binaryExpression).join(', ')} FROM (\n`;
}

function binaryCopy(sql: string, columns: ExportColumn[], rowLimit: number): string {
  // A statement may answer no columns at all (SELECT FROM t), and an empty alias list is no SQL.
  const names = columns.length > 0 ? `(${columns.map((column) => `"${column.name}"`).join(', ')})` : '';
  return `${binaryCopyBefore(columns)}${sql}\n) AS statement${names} LIMIT ${Math.trunc(rowLimit)}) TO STDOUT (FORMAT binary)`;
}

interface QueryBase {
  columns: QueryColumn[];
  /** Ends the query (cancelling it in the database if it still runs) and resets its connection. */
  close(): Promise<void>;
}

/** A running query answering rows, each the values as text (null for NULL). */
export interface RowsQuery extends QueryBase {
  output: 'rows';
  /** Up to `count` more rows; fewer when they are wide (see CopyTextRows), none at the end. */
  read(count: number): Promise<Row[]>;
}

/** A running query answering CSV exactly as COPY writes it, without a header. */
export interface CsvQuery extends QueryBase {
  output: 'csv';
  /** The next piece of CSV; undefined at the end. */
  read(): Promise<Buffer | undefined>;
}

/** A running query answering a binary COPY of `exportColumns`, for the typed file writers. */
export interface BinaryQuery extends QueryBase {
  output: 'binary';
  /** The result's columns as the COPY sends them. */
  exportColumns: ExportColumn[];
  /** The next piece of the COPY; undefined at the end. */
  read(): Promise<Buffer | undefined>;
}

export type OpenQuery = RowsQuery | CsvQuery | BinaryQuery;

export interface RunOptions {
  timeoutMs: number;
  /** Most rows the query produces. */
  rowLimit: number;
  /** An EXPLAIN cannot stand inside COPY: its few lines are read in one go (not as binary). */
  explain: boolean;
  /** What the statement's sorts, hashes and tuplestores may hold together (memory-budget.ts). */
  memoryBudgetKb: number;
  output: OpenQuery['output'];
  /** Aborts when the caller is gone before the first row: the statement is cancelled then too. */
  hungUp?: AbortSignal;
  /** The places among running statements this one takes before it starts (see claimQuerySlot). */
  slots: QuerySlots;
}

/** Positions in an error about the wrapped statement, moved back to the statement itself. */
function unwrapped<T>(before: string, work: Promise<T>): Promise<T> {
  return work.catch((error: { position?: string }) => {
    if (error?.position) error.position = String(Math.max(1, Number(error.position) - before.length));
    throw error;
  });
}

interface Connection {
  client: Client;
  /** The server process running the query's transaction, to cancel its statement from another connection. */
  backend?: number;
  /** The COPY under way, whose answer timer pg would otherwise leave running. */
  copy?: CopyToStreamQuery;
  /** Closes the connection (once). */
  end(): Promise<void>;
  ended(): boolean;
}

/**
 * Runs user SQL on a connection of its own, logged in as the user's role (see QueryRoles): inside
 * a read-only transaction, with the statement limit set for that transaction only. The rows come
 * from `COPY (statement) TO STDOUT`, which PostgreSQL may run with parallel workers (a cursor read
 * in batches may not), and a CSV answer is COPY's own CSV. The connection is closed when the query
 * ends, so nothing a query changed in its session can reach anything else.
 */
@Injectable()
export class QueryRunner {
  private readonly typeNames = new Map<number, string>();

  constructor(private readonly queryDatabase: QueryDatabase) {}

  /** Runs `sql` on a connection of its own, logged in as the user's role (`login`). */
  async open(login: PoolConfig, sql: string, options: RunOptions): Promise<OpenQuery> {
    const connection = await this.begin(login, options.timeoutMs);
    const { client, end } = connection;
    const close = async () => {
      if (connection.ended()) return;
      // A query still producing rows is cancelled in the database before the connection goes
      // (where the app may signal it; otherwise closing the connection stops it within a second).
      // On the server that runs it: a backend id means nothing on another server.
      await cancelServerBackend(this.queryDatabase.cancelPool(), connection.backend);
      await end();
    };
    // Without this, a query whose first row takes long would run on to the statement limit
    // after its caller went away: nothing reads its answer, yet it holds a connection and a CPU.
    // The connection is closed too, which stops the statement even if the cancel came too early.
    const hungUp = options.hungUp;
    const cancel = () => void close();
    hungUp?.addEventListener('abort', cancel, { once: true });
    if (hungUp?.aborted) cancel();
    try {
      await claimQuerySlot(client, options.slots);
      if (options.explain) return await this.explain(connection, sql, options.output, close);
      const described = await unwrapped(
        SELECT_BEFORE,
        client.query({ text: limited(sql, 0), rowMode: 'array' }),
      );
      const columns = await this.columnsOf(client, described.fields);
      await this.shareWorkMem(client, limited(sql, options.rowLimit), options.memoryBudgetKb);
      const typed = options.output === 'binary' ? exportColumns(columns) : [];
      const [before, copySql] =
        options.output === 'binary'
          ? [binaryCopyBefore(typed), binaryCopy(sql, typed, options.rowLimit)]
          : [
              COPY_BEFORE,
              `COPY (${limited(sql, options.rowLimit)}) TO STDOUT${options.output === 'csv' ? ' (FORMAT csv)' : ''}`,
            ];
      const copy = client.query(copyTo(copySql));
      connection.copy = copy;
      // Heard once the connection is closed under a COPY still running.
      copy.on('error', () => undefined);
      const source = copy[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
      // The first chunk (or the end) is awaited here, so a failing statement fails before any answer.
      const first = await unwrapped(before, source.next());
      const chunks = this.chunksOf(first, source, () => end());
      if (options.output === 'rows') {
        const rows = new CopyTextRows(chunks, columns.length);
        return { output: 'rows', columns, read: (count) => this.failing(rows.read(count), end), close };
      }
      const next = async () => (await chunks.next()).value as Buffer | undefined;
      const read = () => this.failing(next(), end);
      if (options.output === 'binary')
        return { output: 'binary', columns, exportColumns: typed, read, close };
      return { output: 'csv', columns, read, close };
    } catch (error) {
      await end();
      throw await this.endedBy(error);
    } finally {
      hungUp?.removeEventListener('abort', cancel);
    }
  }

  /**
   * A connection of its own as the user's role, in a read-only transaction with the query's
   * settings. It is closed when the query ends, whatever happened: nothing else ever uses it.
   */
  private async begin(login: PoolConfig, timeoutMs: number): Promise<Connection> {
    // The statement limit also bounds the answer, however long the client takes to read it.
    const client = new Client({ ...login, query_timeout: timeoutMs + NO_ANSWER_GRACE_MS });
    // A connection closed under a running query errors here; the query's own read reports it.
    client.on('error', () => undefined);
    let ended = false;
    const connection: Connection = { client, end: () => end(), ended: () => ended };
    const end = async () => {
      if (ended) return;
      ended = true;
      if (connection.copy) settleAnswerTimer(connection.copy);
      await client.end().catch(() => undefined);
    };
    try {
      await client.connect();
      // One round trip: the statements carry no parameters, only values of ours. Only the names
      // the check put in (data."…") resolve as tables; the search path finds functions, the
      // guarded ones (query_guard, which holds nothing else) before the built-ins.
      const opened = await client.query(
        [
          'BEGIN READ ONLY',
          `SET LOCAL statement_timeout = ${Math.trunc(timeoutMs)}`,
          `SET LOCAL search_path = query_guard, pg_catalog`,
          `SET LOCAL DateStyle = 'ISO, YMD'`,
          `SET LOCAL IntervalStyle = 'iso_8601'`,
          SERVER_BACKEND_SQL,
        ].join('; '),
      );
      connection.backend = serverBackendOf(opened);
    } catch (error) {
      await end();
      throw error;
    }
    return connection;
  }

  /** The statement's work_mem: the memory budget shared among its plan's memory nodes (memory-budget.ts). */
  private async shareWorkMem(client: Client, sql: string, budgetKb: number): Promise<void> {
    const { rows } = await client.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`);
    const share = sharedWorkMemKb(memoryNodes(rows[0]?.['QUERY PLAN']), budgetKb);
    if (share < ROLE_WORK_MEM_KB) await client.query(`SET LOCAL work_mem = '${share}kB'`);
  }

  /** An EXPLAIN's plan lines, all read at once. */
  private async explain(
    { client, end }: Connection,
    sql: string,
    output: OpenQuery['output'],
    close: () => Promise<void>,
  ): Promise<OpenQuery> {
    const result = await client.query({ text: sql, rowMode: 'array', types: RAW_TEXT });
    const columns = await this.columnsOf(client, result.fields);
    await end();
    const rows = result.rows as Row[];
    if (output === 'binary') throw new Error('An EXPLAIN is not answered as a typed file');
    if (output === 'rows') return { output, columns, read: async (count) => rows.splice(0, count), close };
    // The plan's lines are few: one piece.
    let text: Buffer | undefined = Buffer.from(rows.map(csvRow).join(''));
    return {
      output,
      columns,
      read: async () => {
        const piece = text;
        text = undefined;
        return piece;
      },
      close,
    };
  }

  /** The COPY's chunks, the first one already read; `finish` runs once they end. */
  private chunksOf(
    first: IteratorResult<Buffer>,
    rest: AsyncIterator<Buffer>,
    finish: () => Promise<void>,
  ): AsyncIterator<Buffer> {
    let pending: IteratorResult<Buffer> | undefined = first;
    return {
      next: async () => {
        const chunk = pending ?? (await rest.next());
        pending = undefined;
        if (chunk.done) await finish();
        return chunk;
      },
    };
  }

  /** A read that fails closes the connection: its transaction is in an unknown state. */
  private async failing<T>(read: Promise<T>, end: () => Promise<void>): Promise<T> {
    try {
      return await read;
    } catch (error) {
      await end();
      throw await this.endedBy(error);
    }
  }

  /**
   * A session ended under the query while the server still answers the app was ended by an owner
   * taking a table it read (the only place the app ends users' sessions); otherwise (a shutdown)
   * the error stays the server's own.
   */
  private async endedBy(error: unknown): Promise<unknown> {
    if (!sessionEnded(error)) return error;
    // The server the query ran on: the replica's pool when user SQL runs there.
    const answering = await this.queryDatabase
      .cancelPool()
      .query('SELECT 1')
      .then(
        () => true,
        () => false,
      );
    return answering ? new TableTakenUnderQuery() : error;
  }

  /** Column names and type names (pg_type.typname, looked up once per type). */
  private async columnsOf(
    client: Client,
    fields: Array<{ name: string; dataTypeID: number }>,
  ): Promise<QueryColumn[]> {
    const unknown = [...new Set(fields.map((field) => field.dataTypeID))].filter(
      (oid) => !this.typeNames.has(oid),
    );
    if (unknown.length > 0) {
      const { rows } = await client.query({
        text: `SELECT oid::int AS oid, typname FROM pg_catalog.pg_type WHERE oid = ANY($1::oid[])`,
        values: [unknown],
      });
      for (const row of rows as Array<{ oid: number; typname: string }>)
        this.typeNames.set(row.oid, row.typname);
    }
    return fields.map((field) => ({
      name: field.name,
      type: this.typeNames.get(field.dataTypeID) ?? 'text',
    }));
  }
}
