import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import type { PoolConfig } from 'pg';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { quoteIdentifier } from '../../database/data-tables/data-table-names';
import { pgPool, Sql, sqlOn, transactionOn } from '../../database/sql';
import { QueryDatabase } from './query-database';

/** Longest a user's role may take to come in step with their holdings, waits for turns included. */
const ROLE_SYNC_LIMIT_MS = 30_000;

/**
 * Session settings of every user's role: what one user query may use of the server. A query whose
 * connection closed stops within a second (client_connection_check_interval): a cancel that
 * reached the server before its statement started would otherwise leave it running to the limit.
 */
const USER_ROLE_SETTINGS = {
  work_mem: '64MB',
  // A hash table may take work_mem, not twice it (the default of PostgreSQL 15 and later).
  hash_mem_multiplier: '1',
  temp_file_limit: '1GB',
  default_transaction_read_only: 'on',
  client_connection_check_interval: '1s',
};

function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * The database roles behind user SQL, the barrier that holds even if a query got past the check:
 * - a role per user, which logs in itself (its password derives from ENCRYPTION_KEY, so every app
 *   process computes the same one) and may only read…
 * - …through reader roles, one per data table, each allowed SELECT on its table alone; a user's
 *   role is a member of the reader roles of exactly the tables the user may read at that moment.
 * A user query's connection logs in as the user's own role rather than switching into it from a
 * shared login: PostgreSQL lets a session switch into any role its login is a member of, so a
 * shared login would have let one user's query become another's.
 * Role names are cluster-wide, so each carries this database's oid (`dq<oid>_…`); a comment names
 * the database, so roles of dropped databases can be found and removed.
 */
@Injectable()
export class QueryRoles {
  private readonly logger = new Logger(QueryRoles.name);
  private prefix?: string;
  private prepared?: Promise<void>;
  /** User roles this process has given their login settings (see readyUserRole). */
  private readonly readyRoles = new Set<string>();

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queryDatabase: QueryDatabase,
  ) {}

  private get sql(): Sql {
    return sqlOn(this.dataSource);
  }

  private async rolePrefix(): Promise<string> {
    if (!this.prefix) {
      const { rows } = await this.sql<{ oid: string }>(
        `SELECT oid::text FROM pg_database WHERE datname = current_database()`,
      );
      this.prefix = `dq${rows[0].oid}`;
    }
    return this.prefix;
  }

  async userRole(userId: string): Promise<string> {
    return `${await this.rolePrefix()}_u_${userId.replaceAll('-', '')}`;
  }

  private async readerRole(tableName: string): Promise<string> {
    const digest = createHmac('sha256', 'reader').update(tableName).digest('hex').slice(0, 24);
    return `${await this.rolePrefix()}_r_${digest}`;
  }

  /** Once per process: no temporary tables for anyone but the app, and no shared login left over. */
  private prepare(): Promise<void> {
    this.prepared ??= this.withLock(async (sql) => {
      const { rows } = await sql<{ database: string }>(`SELECT current_database() AS database`);
      // PUBLIC has TEMP by default.
      await sql(`REVOKE TEMPORARY ON DATABASE ${quoteIdentifier(rows[0].database)} FROM PUBLIC`);
      // Earlier versions ran every user query through one login role, a member of every user role.
      const shared = `${await this.rolePrefix()}_login`;
      if (await this.roleExists(sql, shared)) {
        await sql(`SAVEPOINT shared_login`);
        try {
          await sql(`DROP ROLE ${quoteIdentifier(shared)}`);
          await sql(`RELEASE SAVEPOINT shared_login`);
        } catch (error) {
          // Something of it is still in use elsewhere: it can at least no longer log in.
          await sql(`ROLLBACK TO SAVEPOINT shared_login`);
          await sql(`ALTER ROLE ${quoteIdentifier(shared)} NOLOGIN`);
          this.logger.warn(`Shared query login not dropped (${(error as Error).message}); it cannot log in`);
        }
      }
    }).catch((error) => {
      this.prepared = undefined;
      throw error;
    });
    return this.prepared;
  }

  private passwordOf(role: string): string {
    return createHmac('sha256', this.config.encryptionKey).update(role).digest('hex');
  }

  /**
   * How a connection logs in as the user's role: the app's own connection settings, another user,
   * on the server that runs user SQL (the primary, or the query replica, where the role and its
   * password hash arrive by replication).
   */
  connectionAs(role: string): PoolConfig {
    const password = this.passwordOf(role);
    const options = pgPool(this.dataSource).options as PoolConfig;
    const server = this.queryDatabase.loginUrl() ?? options.connectionString;
    const url = server ? new URL(server) : undefined;
    if (url) {
      url.username = role;
      url.password = password;
      return { ...options, connectionString: url.toString(), user: role, password };
    }
    return { ...options, user: role, password };
  }

  /**
   * The user's role as this process first uses it: able to log in, with the query settings and
   * the password of the current ENCRYPTION_KEY (set again after a restart, so a changed key holds).
   */
  private async readyUserRole(sql: Sql, role: string): Promise<void> {
    const exists = await this.roleExists(sql, role);
    if (exists && this.readyRoles.has(role)) return;
    // Once per role and process, first uses take turns: GRANT on the schema changes its one
    // catalogue row, and ALTER ROLE the role's, which first queries of other users (or two of the
    // same user) would change at the same time ("tuple concurrently updated").
    await sql(`SELECT pg_advisory_xact_lock(hashtext('query roles'))`);
    if (!exists) {
      const { rows } = await sql<{ database: string }>(`SELECT current_database() AS database`);
      await sql(`CREATE ROLE ${quoteIdentifier(role)} LOGIN INHERIT`);
      await sql(
        `COMMENT ON ROLE ${quoteIdentifier(role)} IS ${literal(`query role in ${rows[0].database}`)}`,
      );
    }
    if (this.readyRoles.has(role)) return;
    // Again on every first use: a database restored from a backup (npm run restore) holds no grants.
    await sql(`GRANT USAGE ON SCHEMA data TO ${quoteIdentifier(role)}`);
    await sql(`ALTER ROLE ${quoteIdentifier(role)} LOGIN INHERIT PASSWORD ${literal(this.passwordOf(role))}`);
    for (const [name, value] of Object.entries(USER_ROLE_SETTINGS)) {
      // temp_file_limit may only be set by a superuser; the statement timeout still bounds a query.
      await sql(`SAVEPOINT setting`);
      try {
        await sql(`ALTER ROLE ${quoteIdentifier(role)} SET ${name} = ${literal(value)}`);
        await sql(`RELEASE SAVEPOINT setting`);
      } catch (error) {
        await sql(`ROLLBACK TO SAVEPOINT setting`);
        this.logger.warn(`Query role: ${name} not set (${(error as Error).message})`);
      }
    }
  }

  /**
   * Makes the user's role a member of the reader roles of `used` (all readable by the user now)
   * and of nothing outside `readable`: access removed since the last query ends here at once.
   * Answers how to connect as that role. When the role is already in step (the usual case: the
   * user's holdings did not change since the last query) this is one catalogue read and no lock;
   * otherwise only the user's own role changes and the readers of the tables used take turns, so
   * queries of other users never wait on it.
   */
  async syncUser(userId: string, readable: string[], used: string[]): Promise<PoolConfig> {
    await this.prepare();
    const user = await this.userRole(userId);
    const readers = new Map<string, string>();
    for (const tableName of readable) readers.set(await this.readerRole(tableName), tableName);
    const usedReaders = new Map<string, string>();
    for (const tableName of used) usedReaders.set(await this.readerRole(tableName), tableName);
    if (this.readyRoles.has(user) && (await this.inStep(user, [...readers.keys()], usedReaders)))
      return this.connectionAs(user);
    // Users reading one table for the first time take turns on its reader role: a burst of them
    // (twenty new holders of a public dataset) waits longer than a request's statement limit, so
    // the sync has a limit of its own, which the driver's answer timer follows too.
    const client = await pgPool(this.dataSource).connect();
    let broken: Error | undefined;
    try {
      await transactionOn(client, () => this.bringInStep(sqlOn(client), user, readers, usedReaders), {
        statementLimitMs: ROLE_SYNC_LIMIT_MS,
      });
    } catch (error) {
      broken = error as Error;
      throw error;
    } finally {
      // A connection whose answer timer fired may still be busy: it is not given back to the pool.
      client.release(broken);
    }
    // Only once its transaction committed: a rolled-back sync leaves the role to be readied again.
    this.readyRoles.add(user);
    return this.connectionAs(user);
  }

  /**
   * After a change that took access from the user (committed): their role leaves every reader
   * outside `readable` at once, and their queries still reading a data table outside it are ended
   * (the reader sees the answer of a table taken under its query). Revoking first means a query
   * that has not yet locked its tables is refused by the database itself; ending second catches
   * those already reading. A user who never ran a query has no role, and nothing to end.
   */
  async withdraw(userId: string, readable: string[]): Promise<void> {
    const user = await this.userRole(userId);
    if (!(await this.roleExists(this.sql, user))) return;
    const readers = new Set<string>();
    for (const tableName of readable) readers.add(await this.readerRole(tableName));
    await this.dataSource.transaction(async (manager) => {
      const sql = sqlOn(manager);
      await sql(`SELECT pg_advisory_xact_lock(hashtext('query role of a user'), hashtext($1))`, [user]);
      const { rows } = await sql<{ role: string }>(
        `SELECT granted.rolname AS role FROM pg_auth_members member
           JOIN pg_roles granted ON granted.oid = member.roleid
           JOIN pg_roles grantee ON grantee.oid = member.member
          WHERE grantee.rolname = $1`,
        [user],
      );
      for (const { role } of rows) {
        if (!readers.has(role)) await sql(`REVOKE ${quoteIdentifier(role)} FROM ${quoteIdentifier(user)}`);
      }
    });
    await this.sql(
      `SELECT pg_terminate_backend(activity.pid)
         FROM pg_stat_activity activity
        WHERE activity.usename = $1 AND activity.pid <> pg_backend_pid()
          AND EXISTS (
            SELECT 1 FROM pg_locks lock
              JOIN pg_class relation ON relation.oid = lock.relation
              JOIN pg_namespace schema ON schema.oid = relation.relnamespace
             WHERE lock.pid = activity.pid AND lock.locktype = 'relation'
               AND lock.database = (SELECT oid FROM pg_database WHERE datname = current_database())
               AND schema.nspname = 'data' AND relation.relname <> ALL ($2::text[])
               -- Tables only: a query planned on a table locks its indexes too, under their own names.
               AND relation.relkind IN ('r', 'p', 'v', 'm', 'f'))`,
      [user, readable],
    );
  }

  /** Grants and revokes of the user's role, in the sync's transaction, taking turns where they collide. */
  private async bringInStep(
    sql: Sql,
    user: string,
    readers: Map<string, string>,
    usedReaders: Map<string, string>,
  ): Promise<void> {
    await sql(`SELECT pg_advisory_xact_lock(hashtext('query role of a user'), hashtext($1))`, [user]);
    // In one order for everyone (by lock key), so two users' changes never wait on each other in a circle.
    await sql(
      `SELECT pg_advisory_xact_lock(hashtext('reader role of a table'), key)
         FROM (SELECT DISTINCT hashtext(name) AS key FROM unnest($1::text[]) AS name ORDER BY key) AS keys`,
      [[...usedReaders.values()]],
    );
    await this.readyUserRole(sql, user);
    const { rows: memberships } = await sql<{ role: string }>(
      `SELECT granted.rolname AS role FROM pg_auth_members member
         JOIN pg_roles granted ON granted.oid = member.roleid
         JOIN pg_roles grantee ON grantee.oid = member.member
        WHERE grantee.rolname = $1`,
      [user],
    );
    const current = new Set(memberships.map((row) => row.role));
    for (const role of current) {
      if (!readers.has(role)) await sql(`REVOKE ${quoteIdentifier(role)} FROM ${quoteIdentifier(user)}`);
    }
    for (const [reader, tableName] of usedReaders) {
      await this.ensureReader(sql, reader, tableName);
      if (!current.has(reader)) await sql(`GRANT ${quoteIdentifier(reader)} TO ${quoteIdentifier(user)}`);
    }
  }

  /**
   * Whether the user's role needs no change: it exists, is a member of no reader outside
   * `readable` and of every reader in `used`, each of which may read its table (a replace puts a
   * new table in place).
   */
  private async inStep(user: string, readable: string[], used: Map<string, string>): Promise<boolean> {
    const { rows } = await this.sql<{ in_step: boolean }>(
      `WITH memberships AS (
         SELECT granted.rolname AS role FROM pg_auth_members member
           JOIN pg_roles granted ON granted.oid = member.roleid
           JOIN pg_roles grantee ON grantee.oid = member.member
          WHERE grantee.rolname = $1)
       SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1)
          AND NOT EXISTS (SELECT 1 FROM memberships WHERE role <> ALL ($2::text[]))
          AND NOT EXISTS (
            SELECT 1 FROM unnest($3::text[], $4::text[]) AS used(reader, table_name)
             WHERE CASE WHEN used.reader IN (SELECT role FROM memberships)
                        THEN NOT has_table_privilege(used.reader, format('data.%I', used.table_name), 'SELECT')
                        ELSE true END) AS in_step`,
      [user, readable, [...used.keys()], [...used.values()]],
    );
    return rows[0].in_step;
  }

  /** The reader role of a table, with SELECT on it (again after a replace put a new table in its place). */
  private async ensureReader(sql: Sql, reader: string, tableName: string): Promise<void> {
    if (!(await this.roleExists(sql, reader))) await sql(`CREATE ROLE ${quoteIdentifier(reader)} NOLOGIN`);
    const { rows } = await sql<{ granted: boolean }>(
      `SELECT has_table_privilege($1, format('data.%I', $2::text), 'SELECT') AS granted`,
      [reader, tableName],
    );
    if (!rows[0].granted)
      await sql(`GRANT SELECT ON data.${quoteIdentifier(tableName)} TO ${quoteIdentifier(reader)}`);
  }

  private async roleExists(sql: Sql, role: string): Promise<boolean> {
    const { rows } = await sql(`SELECT 1 FROM pg_roles WHERE rolname = $1`, [role]);
    return rows.length > 0;
  }

  /**
   * Changes to the whole database's query setup (once per process) take turns across processes:
   * two concurrent changes of one catalogue row collide.
   */
  private async withLock(work: (sql: Sql) => Promise<void>): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const sql = sqlOn(manager);
      await sql(`SELECT pg_advisory_xact_lock(hashtext('query roles'))`);
      await work(sql);
    });
  }
}
