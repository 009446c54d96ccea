import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { Pool, PoolClient } from 'pg';
import Cursor from 'pg-cursor';
import { quoteIdentifier } from '../../database/data-tables/data-table-names';
import { QueryRoles } from './query-roles.service';

/** The server process of a connection, to cancel its statement from another one. */
function backendOf(client: PoolClient): number {
  return (client as unknown as { processID: number }).processID;
}

/** Values exactly as PostgreSQL writes them: the writers decide how each type goes out. */
const RAW_TEXT = { getTypeParser: () => (value: string) => value };

export interface QueryColumn {
  name: string;
  type: string;
}

/** A running query: its columns, then its rows in batches, each row the values as text (null for NULL). */
export interface OpenQuery {
  columns: QueryColumn[];
  /** Up to `count` more rows; fewer (or none) at the end. */
  read(count: number): Promise<Array<Array<string | null>>>;
  /** Ends the query (cancelling it in the database if it still runs) and resets its connection. */
  close(): Promise<void>;
}

/**
 * Runs user SQL on connections of the query login role: inside a read-only transaction, as the
 * user's role, with the statement limit set for that transaction only. A connection goes back to
 * the pool only after DISCARD ALL; one whose query failed or was cancelled is closed instead.
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

  /** `cancelled` stops the statement in the database while it works towards its first row. */
  async open(role: string, sql: string, timeoutMs: number, cancelled?: AbortSignal): Promise<OpenQuery> {
    const pool = await this.loginPool();
    const client = await pool.connect();
    let ended = false;
    const end = async (reusable: boolean) => {
      if (ended) return;
      ended = true;
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
      await client.query(`SELECT set_config('statement_timeout', $1, true)`, [String(timeoutMs)]);
      // Only the names the check put in (data."…") resolve; nothing is found by search path.
      await client.query(`SET LOCAL search_path = ''`);
      await client.query(`SET LOCAL DateStyle = 'ISO, YMD'`);
      await client.query(`SET LOCAL IntervalStyle = 'iso_8601'`);
    } catch (error) {
      await end(false);
      throw error;
    }
    if (cancelled?.aborted) {
      await end(false);
      throw new Error('The caller went away before the query started');
    }
    const cancel = () => {
      void pool.query('SELECT pg_cancel_backend($1)', [backendOf(client)]).catch(() => undefined);
    };
    cancelled?.addEventListener('abort', cancel, { once: true });
    const cursor = client.query(new Cursor(sql, [], { rowMode: 'array', types: RAW_TEXT }));
    let columns: QueryColumn[];
    let first: Array<Array<string | null>>;
    try {
      first = await this.readFrom(cursor, 1);
      columns = await this.columnsOf(pool, cursor);
    } catch (error) {
      await end(false);
      throw error;
    } finally {
      cancelled?.removeEventListener('abort', cancel);
    }
    let pending = first;
    return {
      columns,
      read: async (count) => {
        if (pending.length > 0) {
          const batch = pending;
          pending = [];
          if (count <= batch.length) return batch;
          return [...batch, ...(await this.readOrEnd(cursor, count - batch.length, end))];
        }
        return this.readOrEnd(cursor, count, end);
      },
      close: async () => {
        if (ended) return;
        // A query still producing rows is cancelled in the database before the connection goes.
        await pool.query('SELECT pg_cancel_backend($1)', [backendOf(client)]).catch(() => undefined);
        await new Promise<void>((done) => cursor.close(() => done()));
        await end(false);
      },
    };
  }

  private async readOrEnd(
    cursor: Cursor,
    count: number,
    end: (reusable: boolean) => Promise<void>,
  ): Promise<Array<Array<string | null>>> {
    try {
      const rows = await this.readFrom(cursor, count);
      if (rows.length < count) {
        await new Promise<void>((done) => cursor.close(() => done()));
        await end(true);
      }
      return rows;
    } catch (error) {
      await end(false);
      throw error;
    }
  }

  private readFrom(cursor: Cursor, count: number): Promise<Array<Array<string | null>>> {
    return new Promise((done, fail) =>
      cursor.read(count, (error, rows) => (error ? fail(error) : done(rows as Array<Array<string | null>>))),
    );
  }

  /** Column names and type names (pg_type.typname, looked up once per type). */
  /** Looked up on another connection: a statement on the query's own would end its cursor. */
  private async columnsOf(pool: Pool, cursor: Cursor): Promise<QueryColumn[]> {
    const fields =
      (cursor as unknown as { _result?: { fields?: Array<{ name: string; dataTypeID: number }> } })._result
        ?.fields ?? [];
    const unknown = [...new Set(fields.map((field) => field.dataTypeID))].filter(
      (oid) => !this.typeNames.has(oid),
    );
    if (unknown.length > 0) {
      const { rows } = await pool.query({
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
