import { Inject, Injectable, OnApplicationShutdown, ServiceUnavailableException } from '@nestjs/common';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { parseLsn } from '../../database/replica-freshness';
import { pgPool } from '../../database/sql';
import { queryServerUrl } from './query-server';

/**
 * Longest a query waits for the query replica to replay what the primary had committed when the
 * query's role was brought in step (a grant, a new table): a replica keeping up does so in
 * milliseconds; one further behind answers 503 rather than run on the primary it is there to spare.
 */
export const REPLAY_WAIT_MS = 5_000;
/** How often a waiting query asks the replica again. */
const REPLAY_POLL_MS = 25;

/** The query replica is behind or away: the caller may simply try again. */
export class QueryReplicaBehind extends ServiceUnavailableException {
  constructor(reason: string) {
    super({
      statusCode: 503,
      error: 'Service Unavailable',
      message: `${reason}: please try again in a few seconds`,
    });
  }
}

/**
 * The server that runs user SQL. By default the primary (straight, not through a pooler: see
 * queryServerUrl). With QUERY_DATABASE_URL, a streaming replica of it: user statements, however
 * heavy, then take that server's CPU, memory and disk, never the primary's, so the catalogue,
 * checkouts and writes keep their pace under a flood of queries. Roles, grants and data tables are
 * made on the primary and reach the replica by replication; a query waits (briefly) until the
 * replica has replayed them (awaitAccess). The URL's login (the app's own user) serves this
 * process's own statements there: replay positions and cancels. The running-statement cap
 * (claimQuerySlot) is counted where the statements run, on the replica: its advisory locks work
 * on a hot standby and every process's queries meet there.
 */
@Injectable()
export class QueryDatabase implements OnApplicationShutdown {
  private replica?: Pool;
  /** The furthest replay position seen on the replica (it only moves forward). */
  private replayed = 0n;
  /** The one replay probe in flight, shared by every waiting query of this process. */
  private probing?: Promise<void>;

  constructor(
    private readonly primary: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    const url = config.query.databaseUrl;
    if (url) {
      // Few and short statements: replay positions and cancels.
      this.replica = new Pool({ connectionString: url, max: 2, application_name: 'query replica watch' });
      // An idle connection the replica dropped must not bring the process down.
      this.replica.on('error', () => undefined);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.replica?.end().catch(() => undefined);
  }

  /** Whether user SQL runs on a replica (QUERY_DATABASE_URL). */
  get onReplica(): boolean {
    return this.replica !== undefined;
  }

  /** Where a user role logs in to run its statement (user and password are put in by QueryRoles). */
  loginUrl(): string | undefined {
    return this.config.query.databaseUrl ?? queryServerUrl(this.primary);
  }

  /** The pool that can cancel a statement of the query server (a backend id is per server). */
  cancelPool(): Pool {
    return this.replica ?? pgPool(this.primary);
  }

  /**
   * On a replica: waits until it has replayed everything the primary has committed now, the
   * caller's role as just brought in step included (a grant given a moment ago, access removed, a
   * role or table just made). Without a replica, nothing to wait for.
   */
  async awaitAccess(): Promise<void> {
    if (!this.replica) return;
    const [{ lsn }] = await this.primary.query(`SELECT pg_current_wal_lsn()::text AS lsn`);
    const target = parseLsn(lsn);
    const deadline = Date.now() + REPLAY_WAIT_MS;
    for (;;) {
      if (this.replayed >= target) return;
      const reachable = await this.probe();
      if (this.replayed >= target) return;
      if (Date.now() + REPLAY_POLL_MS > deadline)
        throw new QueryReplicaBehind(
          reachable
            ? 'The query server has not yet caught up with your latest access'
            : 'The query server does not answer',
        );
      await new Promise((resolve) => setTimeout(resolve, REPLAY_POLL_MS));
    }
  }

  /** Reads the replica's replay position once for all waiting queries; answers whether it answered. */
  private async probe(): Promise<boolean> {
    let answered = true;
    this.probing ??= this.replica!.query<{ lsn: string | null }>(
      `SELECT pg_last_wal_replay_lsn()::text AS lsn`,
    )
      .then(({ rows }) => {
        // null: not (or no longer) a standby; a promoted replica takes no grants from the primary.
        const lsn = rows[0]?.lsn;
        if (lsn) {
          const position = parseLsn(lsn);
          if (position > this.replayed) this.replayed = position;
        }
      })
      .finally(() => (this.probing = undefined));
    await this.probing.catch(() => (answered = false));
    return answered;
  }
}
