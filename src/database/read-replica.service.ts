import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { buildDataSourceOptions } from './data-source-options';
import { fallBackToPrimary } from './replica-fallback';
import { ReplicaFreshness } from './replica-freshness';
import { pgPool } from './sql';
import { currentRequest } from './request-context';

/** How often the replica's replay position is compared with the primary's. */
export const REPLICA_PROBE_MS = 250;
/** Users remembered as having written lately, per process, for callers without a session. */
const RECENT_WRITERS_LIMIT = 10_000;
/** Requests that write nothing; any other may have written before it reads. */
export const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'express-session' {
  interface SessionData {
    /** When this session's last write request ended (ms): its reads go to the primary until the replica shows it. */
    wroteAt?: number;
  }
}

/**
 * Where reads go. With DATABASE_READ_URL set, reads that may be a moment stale (catalogue,
 * details, previews, streams, OData, user queries) ask `forReads()` and get the replica while it is
 * at most DATABASE_READ_MAX_LAG_MS behind and already shows the caller's own last write; otherwise,
 * and for everything that writes, the primary. Without a replica it is always the primary.
 */
@Injectable()
export class ReadReplica implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(ReadReplica.name);
  private replica?: DataSource;
  private readonly freshness = new ReplicaFreshness();
  private readonly recentWriters = new Map<string, number>();
  private probe?: NodeJS.Timeout;
  private probing = false;
  /** What the last decision was, so a switch is logged once, not on every read. */
  private usingReplica?: boolean;

  constructor(
    private readonly primary: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.config.databaseReadUrl) return;
    const options = buildDataSourceOptions(
      this.config.databaseReadUrl,
      this.config.databasePoolSize,
      this.config.databaseTimeouts,
    );
    // Raw reads only: without entities TypeORM checks nothing at connect (a replica refuses writes).
    this.replica = new DataSource(Object.assign(options, { entities: [], migrations: [] }));
    this.probe = setInterval(() => void this.compare(), REPLICA_PROBE_MS);
    this.probe.unref();
    await this.compare();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.probe) clearInterval(this.probe);
    if (this.replica?.isInitialized) await this.replica.destroy().catch(() => undefined);
  }

  /** The data source for a read that may come from the replica (see the class comment). */
  forReads(): DataSource {
    const useReplica = this.replica !== undefined && this.replicaServes(Date.now());
    if (this.replica && useReplica !== this.usingReplica) {
      this.usingReplica = useReplica;
      if (useReplica) this.logger.log('Read replica caught up: reads go to it');
      else
        this.logger.warn(
          `Read replica down or more than ${this.config.databaseReadMaxLagMs} ms behind: reads go to the primary`,
        );
    }
    return useReplica ? this.replica! : this.primary;
  }

  /** Whether the replica serves reads now (undefined without one): the health check's `replica`. */
  replicaFresh(): boolean | undefined {
    return this.replica ? this.freshness.isFresh(Date.now(), this.config.databaseReadMaxLagMs) : undefined;
  }

  /** Remembers that the caller of the current request has just written (see ReadYourWritesInterceptor). */
  noteWrite(): void {
    // Without a replica every read is the primary's: nothing to remember (and no session to save).
    if (!this.replica) return;
    const request = currentRequest();
    if (!request) return;
    const now = Date.now();
    if (request.session) request.session.wroteAt = now;
    const user = request.user as AuthenticatedUser | undefined;
    if (!user) return;
    if (this.recentWriters.size >= RECENT_WRITERS_LIMIT) this.forgetOldWriters(now);
    this.recentWriters.set(user.id, now);
  }

  private replicaServes(now: number): boolean {
    if (!this.freshness.isFresh(now, this.config.databaseReadMaxLagMs)) return false;
    const request = currentRequest();
    if (!request) return true;
    // A request that writes reads what it wrote (an update answers the record as it is now).
    if (!READ_METHODS.has(request.method)) return false;
    const user = request.user as AuthenticatedUser | undefined;
    const wroteAt = Math.max(request.session?.wroteAt ?? 0, (user && this.recentWriters.get(user.id)) || 0);
    return this.freshness.shows(wroteAt);
  }

  /** Writers whose writes the replica already shows need no remembering. */
  private forgetOldWriters(now: number): void {
    for (const [userId, wroteAt] of this.recentWriters)
      if (this.freshness.shows(wroteAt) || wroteAt < now - this.config.databaseReadMaxLagMs)
        this.recentWriters.delete(userId);
  }

  private async compare(): Promise<void> {
    if (this.probing || !this.replica) return;
    this.probing = true;
    try {
      // A replica down at start must not stop the app: it is connected to once it answers.
      if (!this.replica.isInitialized) {
        await this.replica.initialize();
        fallBackToPrimary(pgPool(this.replica), pgPool(this.primary), () => this.freshness.forget());
      }
      const at = Date.now();
      const [primary] = await this.primary.query(`SELECT pg_current_wal_lsn()::text AS lsn`);
      this.freshness.recordPrimary(at, primary.lsn);
      const [replica] = await this.replica.query(`SELECT pg_last_wal_replay_lsn()::text AS lsn`);
      this.freshness.recordReplica(replica.lsn);
    } catch {
      // Either server not answering: caughtUpTo stays where it was and ages past the bound.
    } finally {
      this.probing = false;
    }
  }
}
