import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { Pool, PoolClient } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { CopyToStreamQuery } from 'pg-copy-streams';
import { localStatementLimit } from '../../database/sql';
import { quoteIdentifier } from '../../database/data-tables/data-table-names';
import { settleAnswerTimer } from '../../stream/copy-out';
import { CopyTextRows, Row } from './copy-text-rows';
import { QueryRoles } from './query-roles.service';
import { csvRow } from './result-encoding';

/** The server process of a connection, to cancel its statement from another one. */
function backendOf(client: PoolClient): number {
  return (client as unknown as { processID: number }).processID;
}

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

interface QueryBase {
  columns: QueryColumn[];
  /** Ends the query (cancelling it in the database if it still runs) and resets its connection. */
  close(): Promise<void>;
}

/** A running query answering rows, each the values as text (null for NULL). */
export interface RowsQuery extends QueryBase {
  output: 'rows';
  /** Up to `count` more rows; fewer (or none) at the end. */
  read(count: number): Promise<Row[]>;
}

/** A running query answering CSV exactly as COPY writes it, without a header. */
export interface CsvQuery extends QueryBase {
  output: 'csv';
  /** The next piece of CSV; undefined at the end. */
  read(): Promise<Buffer | undefined>;
}

export type OpenQuery = RowsQuery | CsvQuery;

export interface RunOptions {
  timeoutMs: number;
  /** Most rows the query produces. */
  rowLimit: number;
  /** An EXPLAIN cannot stand inside COPY: its few lines are read in one go. */
  explain: boolean;
  output: OpenQuery['output'];
  /** Aborts when the caller is gone before the first row: the statement is cancelled then too. */
  hungUp?: AbortSignal;
}

/** Positions in an error about the wrapped statement, moved back to the statement itself. */
function unwrapped<T>(before: string, work: Promise<T>): Promise<T> {
  return work.catch((error: { position?: string }) => {
    if (error?.position) error.position = String(Math.max(1, Number(error.position) - before.length));
    throw error;
  });
}

interface Connection {
  client: PoolClient;
  /** The COPY under way, whose answer timer pg would otherwise leave running. */
  copy?: CopyToStreamQuery;
  /** Gives the connection back (after COMMIT and DISCARD ALL) or, when not reusable, closes it. */
  end(reusable: boolean): Promise<void>;
  ended(): boolean;
}

/**
 * Runs user SQL on connections of the query login role: inside a read-only transaction, as the
 * user's role, with the statement limit set for that transaction only. The rows come from
 * `COPY (statement) TO STDOUT`, which PostgreSQL may run with parallel workers (a cursor read in
 * batches may not), and a CSV answer is COPY's own CSV. A connection goes back to the pool only
 * after DISCARD ALL; one whose query failed or was cancelled is closed instead.
 */
@Injectable()
export class QueryRunner implements OnModuleDestroy {
  private pool?: Promise<Pool>;
  private readonly typeNames = new Map<number, string>();

  constructor(private readonly roles: QueryRoles) {}

  private loginPool(): Promise<Pool> {
    this.pool ??= this.roles.prepareLogin().then((config) => new Pool({ ...config, max: 10 }));
    return this.pool;
  }

  async onModuleDestroy(): Promise<void> {
    if (this.pool) await (await this.pool).end();
  }

  async open(role: string, sql: string, options: RunOptions): Promise<OpenQuery> {
    const pool = await this.loginPool();
    const connection = await this.begin(pool, role, options.timeoutMs);
    const { client, end } = connection;
    const close = async () => {
      if (connection.ended()) return;
      // A query still producing rows is cancelled in the database before the connection goes.
      await pool.query('SELECT pg_cancel_backend($1)', [backendOf(client)]).catch(() => undefined);
      await end(false);
    };
    // Without this, a query whose first row takes long would run on to the statement limit
    // after its caller went away: nothing reads its answer, yet it holds a connection and a CPU.
    // The connection is closed too, which stops the statement even if the cancel came too early.
    const hungUp = options.hungUp;
    const cancel = () => void close();
    hungUp?.addEventListener('abort', cancel, { once: true });
    if (hungUp?.aborted) cancel();
    try {
      if (options.explain) return await this.explain(connection, sql, options.output, close);
      const described = await unwrapped(
        SELECT_BEFORE,
        client.query({ text: limited(sql, 0), rowMode: 'array' }),
      );
      const columns = await this.columnsOf(client, described.fields);
      const format = options.output === 'csv' ? ' (FORMAT csv)' : '';
      const copy = client.query(copyTo(`COPY (${limited(sql, options.rowLimit)}) TO STDOUT${format}`));
      connection.copy = copy;
      // Heard once the connection is closed under a COPY still running.
      copy.on('error', () => undefined);
      const source = copy[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
      // The first chunk (or the end) is awaited here, so a failing statement fails before any answer.
      const first = await unwrapped(COPY_BEFORE, source.next());
      const chunks = this.chunksOf(first, source, () => end(true));
      if (options.output === 'rows') {
        const rows = new CopyTextRows(chunks, columns.length);
        return { output: 'rows', columns, read: (count) => this.failing(rows.read(count), end), close };
      }
      const next = async () => (await chunks.next()).value as Buffer | undefined;
      return { output: 'csv', columns, read: () => this.failing(next(), end), close };
    } catch (error) {
      await end(false);
      throw error;
    } finally {
      hungUp?.removeEventListener('abort', cancel);
    }
  }

  /** A pooled connection in a read-only transaction as the user's role, with the query's settings. */
  private async begin(pool: Pool, role: string, timeoutMs: number): Promise<Connection> {
    const client = await pool.connect();
    // The statement limit also bounds the answer, however long the client takes to read it: the
    // pool's own wait for an answer would otherwise cut a long one short.
    const limit = localStatementLimit(client, timeoutMs);
    let ended = false;
    const connection: Connection = { client, end: (reusable) => end(reusable), ended: () => ended };
    const end = async (reusable: boolean) => {
      if (ended) return;
      ended = true;
      if (connection.copy) settleAnswerTimer(connection.copy);
      limit.restore();
      if (reusable) {
        try {
          await client.query('COMMIT');
          await client.query('DISCARD ALL');
        } catch {
          reusable = false;
        }
      }
      client.release(!reusable);
    };
    try {
      await client.query('BEGIN READ ONLY');
      await client.query(`SET LOCAL ROLE ${quoteIdentifier(role)}`);
      await client.query(limit.sql);
      // Only the names the check put in (data."…") resolve; nothing is found by search path.
      await client.query(`SET LOCAL search_path = ''`);
      await client.query(`SET LOCAL DateStyle = 'ISO, YMD'`);
      await client.query(`SET LOCAL IntervalStyle = 'iso_8601'`);
    } catch (error) {
      await end(false);
      throw error;
    }
    return connection;
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
    await end(true);
    const rows = result.rows as Row[];
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
  private async failing<T>(read: Promise<T>, end: (reusable: boolean) => Promise<void>): Promise<T> {
    try {
      return await read;
    } catch (error) {
      await end(false);
      throw error;
    }
  }

  /** Column names and type names (pg_type.typname, looked up once per type). */
  private async columnsOf(
    client: PoolClient,
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
